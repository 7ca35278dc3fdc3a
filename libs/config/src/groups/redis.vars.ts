import { z } from 'zod';
import { optionalText, type SettingsOf } from '../setting.builders';

// The gateway, the webhooks service and the dispatcher; libs/messaging
// connects with them (RedisGroupSettings).
export const redisVars = {
  REDIS_URL: z
    .string()
    .min(1)
    .default('redis://127.0.0.1:6379/0')
    .describe(
      "This region's Redis (BullMQ queues; the gateway's rate-limit counters). `rediss://` connects over TLS. Keep the password out of it: `REDIS_PASSWORD`.",
    ),
  REDIS_USERNAME: optionalText('Redis ACL user name, when the server uses ACLs (Redis 6+).'),
  REDIS_PASSWORD: optionalText(
    'Password of the Redis server (AUTH), from a Secret; used when `REDIS_URL` carries none.',
  ),
  REDIS_TLS_CA_FILE: optionalText(
    'PEM file of the CA that signed the Redis server certificate; turns TLS on (as `rediss://` does).',
  ),
};

export type RedisGroupSettings = SettingsOf<typeof redisVars>;
