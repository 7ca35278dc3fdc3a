import type { WebhooksPrismaClient } from '@formline/db';

// What re-sealing needs of the webhook-delivery lib's SecretBox, by shape: the
// test harness (libs/testing) provisions accounts with this lib, and the
// webhook-delivery specs use the harness, so importing that lib here, even
// for a type, would make the two depend on each other.
export interface SecretSealer {
  isCurrent(sealed: string): boolean;
  open(sealed: string): string;
  seal(plain: string): string;
}

export interface ResealReport {
  resealed: number;
  alreadyCurrent: number;
  /** Webhooks whose secret no configured key opens (left as they are). */
  unreadable: string[];
}

// Key rotation, second half: every webhook secret not yet sealed with the
// newest key is opened with whichever key of the ring fits and sealed again
// with the newest. A batch at a time, by id; each row is rewritten only if
// its secret did not change meanwhile (a concurrent PUT wins). Run it after
// every replica has the new ring; once it reports nothing unreadable, older
// keys may leave the ring.
export async function resealWebhookSecrets(
  db: WebhooksPrismaClient,
  box: SecretSealer,
  batchSize = 200,
): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, alreadyCurrent: 0, unreadable: [] };
  let after = '';
  for (;;) {
    const rows = await db.webhook.findMany({
      where: { id: { gt: after }, secretSealed: { not: null } },
      select: { id: true, secretSealed: true },
      orderBy: { id: 'asc' },
      take: batchSize,
    });
    if (rows.length === 0) return report;
    after = rows[rows.length - 1].id;
    for (const { id, secretSealed } of rows) {
      if (secretSealed === null) continue;
      if (box.isCurrent(secretSealed)) {
        report.alreadyCurrent += 1;
        continue;
      }
      let plain: string;
      try {
        plain = box.open(secretSealed);
      } catch {
        report.unreadable.push(id);
        continue;
      }
      const { count } = await db.webhook.updateMany({
        where: { id, secretSealed },
        data: { secretSealed: box.seal(plain) },
      });
      report.resealed += count;
    }
  }
}
