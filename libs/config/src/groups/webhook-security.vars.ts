import { z } from 'zod';
import { commaList } from '../setting.builders';

// Shared by the webhooks service (which saves webhooks) and the dispatcher
// (which delivers): both open sealed secrets and both check target addresses.
export const webhookSecurityVars = {
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'expected 32 bytes, base64 encoded')
    .optional()
    .describe(
      'Key that encrypts webhook signing secrets at rest (AES-256-GCM): 32 random bytes, base64 (`openssl rand -base64 32`). Keep it in a Secret. Required unless WEBHOOK_SECRET_KEYS is set; to rotate, move to WEBHOOK_SECRET_KEYS.',
    ),
  WEBHOOK_SECRET_KEYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const keys = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => ({
          id: entry.slice(0, entry.indexOf(':')),
          key: entry.slice(entry.indexOf(':') + 1),
        }));
      for (const { id, key } of keys) {
        if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
          ctx.addIssue({ code: 'custom', message: `key id "${id}": 1-32 letters, digits, _ or -` });
        else if (Buffer.from(key, 'base64').length !== 32)
          ctx.addIssue({ code: 'custom', message: `key ${id}: expected 32 bytes, base64 encoded` });
      }
      if (new Set(keys.map((k) => k.id)).size !== keys.length)
        ctx.addIssue({ code: 'custom', message: 'key ids must differ' });
      return keys;
    })
    .describe(
      'Several webhook secret keys, for rotation: `id:base64key,id:base64key`, newest first. The newest seals new secrets; every key listed opens the secrets sealed with it (and WEBHOOK_SECRET_KEY, if also set, is tried for secrets sealed before key ids existed). `npm run admin -- reseal-webhook-secrets` re-seals old secrets with the newest key, after which older keys may be dropped. Never reuse an id for another key.',
    ),
  WEBHOOK_ALLOWED_HOSTS: commaList(
    'Comma-separated host names, addresses or CIDR ranges that webhooks may target although internal (e.g. 127.0.0.1 for a local receiver), over plain http too; empty by default.',
  ),
};

// The key ring of the webhooks service and dispatcher, newest first: the
// variables above, merged (WEBHOOK_SECRET_KEY last, as the oldest, id `default`).
export function webhookSecretKeys(config: {
  WEBHOOK_SECRET_KEY?: string;
  WEBHOOK_SECRET_KEYS?: { id: string; key: string }[];
}): { id: string; key: string }[] {
  const ring = [...(config.WEBHOOK_SECRET_KEYS ?? [])];
  if (config.WEBHOOK_SECRET_KEY && !ring.some((entry) => entry.id === 'default'))
    ring.push({ id: 'default', key: config.WEBHOOK_SECRET_KEY });
  return ring;
}

// For the config schemas that spread webhookSecurityVars: one of the two keys must be set.
export function requireWebhookSecretKey(
  config: { WEBHOOK_SECRET_KEY?: string; WEBHOOK_SECRET_KEYS?: unknown[] },
  ctx: z.RefinementCtx,
): void {
  if (!config.WEBHOOK_SECRET_KEY && !config.WEBHOOK_SECRET_KEYS?.length)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SECRET_KEY'],
      message: 'set WEBHOOK_SECRET_KEY or WEBHOOK_SECRET_KEYS',
    });
}
