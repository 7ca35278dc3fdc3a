import { type AppName, appNames } from '@formline/app-config';
import type { Region, RegionBaseUrls } from '@formline/contracts';

// The apps' names are the configuration's (one schema each); the stack starts them.
export { type AppName, appNames };

// Everything one region's six apps need to find each other and their servers.
export interface RegionStackSettings {
  region: Region;
  baseUrls: RegionBaseUrls;
  httpHost: string;
  httpPort: number;
  /** The media app's HTTP port, on httpHost (the gateway forwards the image routes to it). */
  mediaPort: number;
  /** MEDIA_FORWARDING_KEY of the gateway and media (base64, 32 bytes). */
  mediaForwardingKey: string;
  natsUrl: string;
  redisUrl: string;
  globalDatabaseUrl: string;
  responsesDatabaseUrl: string;
  webhooksDatabaseUrl: string;
  /** WEBHOOK_SECRET_KEY of the webhooks service and dispatcher (base64, 32 bytes). */
  webhookSecretKey: string;
  /** WEBHOOK_ALLOWED_HOSTS: internal targets webhooks may reach (127.0.0.1 for a local receiver). */
  webhookAllowedHosts: string;
  opsPorts: Record<AppName, number>;
  logFormat: 'json' | 'pretty';
  /** Extra variables for every app, e.g. shorter timeouts in tests. */
  extraEnv?: Record<string, string>;
}

// The environment of one app of the stack: exactly the variables its config reads.
export function appEnvironment(app: AppName, s: RegionStackSettings): Record<string, string> {
  const common = {
    REGION: s.region,
    BASE_URL: s.baseUrls.us,
    EU_BASE_URL: s.baseUrls.eu,
    OPS_HOST: '127.0.0.1',
    OPS_PORT: String(s.opsPorts[app]),
    LOG_FORMAT: s.logFormat,
    ...s.extraEnv,
  };
  const webhookSecurity = {
    WEBHOOK_SECRET_KEY: s.webhookSecretKey,
    WEBHOOK_ALLOWED_HOSTS: s.webhookAllowedHosts,
  };
  switch (app) {
    case 'gateway':
      return {
        ...common,
        NATS_URL: s.natsUrl,
        REDIS_URL: s.redisUrl,
        HTTP_HOST: s.httpHost,
        HTTP_PORT: String(s.httpPort),
        MEDIA_URL: `http://${s.httpHost}:${s.mediaPort}`,
        MEDIA_FORWARDING_KEY: s.mediaForwardingKey,
      };
    case 'media':
      return {
        ...common,
        NATS_URL: s.natsUrl,
        HTTP_HOST: s.httpHost,
        HTTP_PORT: String(s.mediaPort),
        MEDIA_FORWARDING_KEY: s.mediaForwardingKey,
      };
    case 'global':
      return { ...common, NATS_URL: s.natsUrl, GLOBAL_DATABASE_URL: s.globalDatabaseUrl };
    case 'responses':
      return { ...common, NATS_URL: s.natsUrl, RESPONSES_DATABASE_URL: s.responsesDatabaseUrl };
    case 'webhooks':
      return {
        ...common,
        NATS_URL: s.natsUrl,
        REDIS_URL: s.redisUrl,
        WEBHOOKS_DATABASE_URL: s.webhooksDatabaseUrl,
        ...webhookSecurity,
        ...s.extraEnv,
      };
    case 'dispatcher':
      return {
        ...common,
        REDIS_URL: s.redisUrl,
        WEBHOOKS_DATABASE_URL: s.webhooksDatabaseUrl,
        ...webhookSecurity,
        ...s.extraEnv,
      };
  }
}
