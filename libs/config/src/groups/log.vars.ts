import { z } from 'zod';
import type { SettingsOf } from '../setting.builders';

// Every app; libs/ops's logger takes them (LogGroupSettings).
export const logVars = {
  LOG_LEVEL: z
    .enum(['error', 'warn', 'log', 'debug', 'verbose'])
    .default('log')
    .describe('Lowest level logged; `log` is info, `verbose` is trace.'),
  LOG_FORMAT: z
    .enum(['json', 'pretty'])
    .default('json')
    .describe('`json`: one JSON object a line (pino), for machines; `pretty`: for a terminal.'),
};

export type LogGroupSettings = SettingsOf<typeof logVars>;
