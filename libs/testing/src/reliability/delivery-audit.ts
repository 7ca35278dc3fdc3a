// What became of every accepted submission: stored once, delivered at least
// once. A pure function of what the clients, the database and the receiver
// saw, so the fault matrix, the soak and their unit test share it.
export interface AuditInput {
  /** Idempotency-Key -> response token, as the API answered the clients. */
  accepted: ReadonlyMap<string, string>;
  /** The stored responses of the form: their token and Idempotency-Key. */
  stored: readonly { token: string; idempotencyKey: string | null }[];
  /** The response token of every delivery the receiver got, duplicates included. */
  deliveries: readonly string[];
}

export interface AuditFigures {
  accepted: number;
  /** Accepted submissions found in the database (once or more). */
  stored: number;
  /** Accepted submissions stored more than once (must be 0). */
  storedTwice: number;
  /** Accepted submissions delivered at least once. */
  delivered: number;
  /** Deliveries beyond the first of a submission. */
  duplicates: number;
  /** Duplicates per delivered submission, in percent. */
  duplicateRatePercent: number;
  /** Accepted submissions not stored or never delivered (must be 0), with their tokens. */
  lost: number;
  lostTokens: string[];
  /** Stored responses no client was told about (a retry that was then accepted stores once: 0). */
  storedUnannounced: number;
}

export function auditDeliveries(input: AuditInput): AuditFigures {
  const storedByKey = new Map<string, number>();
  const storedTokens = new Set<string>();
  for (const row of input.stored) {
    storedTokens.add(row.token);
    if (row.idempotencyKey)
      storedByKey.set(row.idempotencyKey, (storedByKey.get(row.idempotencyKey) ?? 0) + 1);
  }
  const deliveredCount = new Map<string, number>();
  for (const token of input.deliveries) deliveredCount.set(token, (deliveredCount.get(token) ?? 0) + 1);

  let stored = 0;
  let storedTwice = 0;
  let delivered = 0;
  let duplicates = 0;
  const lostTokens: string[] = [];
  const announced = new Set<string>();
  for (const [key, token] of input.accepted) {
    announced.add(token);
    const copies = storedByKey.get(key) ?? 0;
    const isStored = copies > 0 && storedTokens.has(token);
    if (isStored) stored++;
    if (copies > 1) storedTwice++;
    const deliveries = deliveredCount.get(token) ?? 0;
    if (deliveries > 0) delivered++;
    duplicates += Math.max(0, deliveries - 1);
    if (!isStored || deliveries === 0) lostTokens.push(token);
  }
  return {
    accepted: input.accepted.size,
    stored,
    storedTwice,
    delivered,
    duplicates,
    duplicateRatePercent: delivered === 0 ? 0 : Math.round((duplicates / delivered) * 10_000) / 100,
    lost: lostTokens.length,
    lostTokens,
    storedUnannounced: [...storedTokens].filter((token) => !announced.has(token)).length,
  };
}
