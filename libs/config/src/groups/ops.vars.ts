import { z } from 'zod';
import { port, type SettingsOf } from '../setting.builders';

// Every app: its ops server (health and metrics).
export const opsVars = {
  OPS_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('Address of the ops server (health and metrics); 0.0.0.0 in a container.'),
  OPS_PORT: port('Port of /health/live, /health/ready and /metrics (Prometheus); never exposed publicly.'),
};

export type OpsGroupSettings = SettingsOf<typeof opsVars>;
