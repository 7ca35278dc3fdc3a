// The Node apps of a region, each with its configuration schema here: what
// `npm start`, the tests' stacks and the deploy checks start, one process each.
export const appNames = ['gateway', 'global', 'responses', 'webhooks', 'dispatcher', 'media'] as const;
export type AppName = (typeof appNames)[number];
