import type { Region } from '@formline/contracts';

// Where the global setup started the test profile's servers (scripts/profile.sh).
export interface TestInfra {
  dataDir: string;
  databaseHostUrl: string;
  natsUrl: Record<Region, string>;
  redisUrl: Record<Region, string>;
  /**
   * The same Redis servers, another database (1): the integration tier's
   * queues and counters, never seen by the apps the e2e tier starts.
   */
  integrationRedisUrl: Record<Region, string>;
}

export function testInfra(): TestInfra {
  const env = process.env;
  const required = (name: string): string => {
    const value = env[name];
    if (!value)
      throw new Error(
        `${name} is not set: run the integration and e2e tests through jest (its global setup sets it)`,
      );
    return value;
  };
  return {
    dataDir: required('DATA_DIR'),
    databaseHostUrl: required('DATABASE_HOST_URL'),
    natsUrl: {
      us: `nats://127.0.0.1:${required('NATS_PORT_US')}`,
      eu: `nats://127.0.0.1:${required('NATS_PORT_EU')}`,
    },
    redisUrl: {
      us: `redis://127.0.0.1:${required('REDIS_PORT_US')}/0`,
      eu: `redis://127.0.0.1:${required('REDIS_PORT_EU')}/0`,
    },
    integrationRedisUrl: {
      us: `redis://127.0.0.1:${required('REDIS_PORT_US')}/1`,
      eu: `redis://127.0.0.1:${required('REDIS_PORT_EU')}/1`,
    },
  };
}

// This worker's slice of the test port range (`k/n`), when the e2e tier's
// global setup started several lanes (test/e2e/lane-env.js sets it).
export function testPortSlice(): string | undefined {
  return process.env.TEST_PORT_SLICE;
}

export function databaseUrl(infra: TestInfra, name: string): string {
  return `${infra.databaseHostUrl}/${name}`;
}
