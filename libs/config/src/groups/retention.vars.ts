import { z } from 'zod';
import { milliseconds, type SettingsOf } from '../setting.builders';

// The retention job of the services that own ever-growing tables (responses, webhooks).
export const retentionVars = {
  RETENTION_INTERVAL_MS: milliseconds(
    600_000,
    'How often the retention job deletes rows past their keep-time (one replica at a time).',
  ),
  RETENTION_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(500)
    .describe('Rows the retention job deletes per statement; it pauses between statements.'),
};

export type RetentionGroupSettings = SettingsOf<typeof retentionVars>;
