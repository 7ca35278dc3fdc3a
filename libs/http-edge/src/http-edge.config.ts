import type { HttpEdgeSettings } from '@formline/config';

// The settings the HTTP edge reads: rate limits, failed-authentication limits,
// the read cache and the upload budgets, declared as groups in libs/config
// (http-edge.vars.ts). An app that serves the API through the edge spreads
// those groups into its schema and provides its config under this token.
export type HttpEdgeConfig = HttpEdgeSettings;

export const HTTP_EDGE_CONFIG = Symbol('HTTP_EDGE_CONFIG');
