import type { StatusTally } from './status-tally';

// What every attack of the outside check is given and gives back.

/** The attacker's own material, made at the check's start through the API. */
export interface AttackTarget {
  base: URL;
  /** A public form of the attacker's account, with a short_text `name` and a file_upload `cv` question. */
  formId: string;
  /** A personal token of the attacker's account (forms, images, responses). */
  token: string;
  /** The attacker account's owner credentials (HTTP Basic), to mint tokens with. */
  owner: { email: string; password: string };
  /** Large images uploaded for the round, none of whose sizes was asked for yet. */
  imageIds: string[];
  /** The progress key of a response already completed, and what must never be echoed from it. */
  completed: { progressKey: string; token: string; text: string };
}

export interface Attack {
  name: string;
  /** One per kind of request the attack sends. */
  tallies: StatusTally[];
  /** What the figures alone do not say (when a budget answered, how many renders). */
  notes: string[];
  /** Runs until `until` (epoch ms), then returns once its own requests are over. */
  run(until: number): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Runs `workers` loops of `step` until `until`, or until `step` says it is done (false). */
export async function loopUntil(
  until: number,
  workers: number,
  step: (worker: number) => Promise<boolean | void>,
) {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (Date.now() < until) if ((await step(worker)) === false) return;
    }),
  );
}

/** The error body's code and description, when the text is one. */
export function errorOf(text: string): { code?: string; description?: string; detail?: string } {
  try {
    const body = JSON.parse(text) as {
      code?: unknown;
      description?: unknown;
      details?: Array<{ code?: unknown }>;
    };
    return {
      code: typeof body.code === 'string' ? body.code : undefined,
      description: typeof body.description === 'string' ? body.description : undefined,
      detail: typeof body.details?.[0]?.code === 'string' ? body.details[0].code : undefined,
    };
  } catch {
    return {};
  }
}
