import { z } from 'zod';
import { milliseconds, type SettingsOf } from '../setting.builders';

// The form purge job of the services that hold a form's data in a region
// (responses, webhooks).
export const formPurgeVars = {
  FORM_PURGE_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(500)
    .describe(
      "Rows of a deleted form the purge job deletes per statement (with their stored files or queued jobs); it pauses FORM_PURGE_PAUSE_MS between statements, so the region's other work never waits long behind it.",
    ),
  FORM_PURGE_PAUSE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe("The purge job's pause between two statements."),
  FORM_PURGE_INTERVAL_MS: milliseconds(
    1000,
    'How often the purge job looks for deleted forms whose data is still here (a deletion is also taken up as it arrives).',
  ),
  FORM_PURGE_SETTLE_MS: milliseconds(
    60_000,
    'A purge ends with a pass that finds nothing of the form at least this long after it was deleted: a submission or upload already under way when the form was deleted is removed too.',
  ),
};

export type FormPurgeGroupSettings = SettingsOf<typeof formPurgeVars>;
