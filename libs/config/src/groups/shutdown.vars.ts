import { z } from 'zod';
import type { SettingsOf } from '../setting.builders';

// Every app: how long a graceful stop may take.
export const shutdownVars = {
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(25_000)
    .describe(
      'Longest a graceful stop may take before the process exits anyway; keep below the pod grace period.',
    ),
};

export type ShutdownGroupSettings = SettingsOf<typeof shutdownVars>;
