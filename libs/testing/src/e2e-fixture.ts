import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Region } from '@formline/contracts';
import {
  createResponsesDatabase,
  createWebhooksDatabase,
  type ResponsesPrismaClient,
  type WebhooksPrismaClient,
} from '@formline/db';
import { type AppName, AppProcess, appEnvironment } from '@formline/stack';
import { createTestAccount, testGlobalDatabase, type TestAccount } from './fixtures';
import { freePort } from './free-port';
import { type HeadlessBrowser, launchHeadlessBrowser } from './headless-browser';
import { type ApiResponse, callApi } from './http';
import { lateBound } from './late-bound';
import { TestNatsServer } from './nats-server';
import { TestRedisServer } from './redis-server';
import { TcpProxy } from './tcp-proxy';
import { makeTestCertificate, type TestCertificate } from './test-certificate';
import { databaseUrl, testInfra } from './test-infra';
import { startTestRegions, type TestRegions, type TestRegionsOptions } from './test-regions';
import { WebhookReceiver } from './webhook-receiver';

/**
 * A region, or a region and a password (its owner then signs in with the
 * account's email), and the account's language (English unless said).
 */
export type TestAccountSpec = Region | { region: Region; password: string; language?: string };
type AccountsOf<Specs> = {
  [Name in keyof Specs]: Specs[Name] extends { password: string }
    ? TestAccount & { password: string }
    : TestAccount;
};
type AccountSpecs = Record<string, TestAccountSpec>;

export interface E2eFixtureOptions<Specs extends AccountSpecs> extends Omit<
  TestRegionsOptions,
  'name' | 'extraEnv' | 'natsUrl' | 'redisUrl' | 'databaseHostUrl'
> {
  /** Names its logs and scratch folder; the spec file's name (`forms-api`) unless given. */
  name?: string;
  /** Fresh accounts by name (a token with every scope, one form), each in its region. */
  accounts?: Specs;
  /**
   * More variables for every app. A function is called in beforeAll, once
   * the fixture's own servers and folder exist (e.g. to name `scratchDir`).
   */
  extraEnv?: Record<string, string> | ((fixture: E2eFixture<Specs>) => Record<string, string>);
  /** A NATS server of the spec's own (one region), which it may stop; `args` are server flags. */
  privateNats?: boolean | { args: readonly string[] };
  /** A Redis server of the spec's own, likewise. */
  privateRedis?: boolean | { args: readonly string[] };
  /**
   * A self-signed certificate for 127.0.0.1 made for the spec (`tls`, its
   * own CA file); the private servers then speak only TLS with it.
   */
  tls?: boolean;
  /** PostgreSQL reached through a proxy the spec can cut (`databaseProxy.stop()`). */
  databaseProxy?: boolean;
  /** A webhook receiver (`receiver.url(path)`). */
  receiver?: boolean;
  /** A headless browser (installs Debian's chromium when missing). */
  browser?: boolean;
}

export interface E2eFixture<Specs extends AccountSpecs> {
  db: ReturnType<typeof testGlobalDatabase>;
  /** The running regions (in tests and hooks). */
  regions: TestRegions;
  /** The accounts by name. */
  accounts: AccountsOf<Specs>;
  baseUrl: (region: Region) => string;
  /** One call with the account's token, to its own region unless told otherwise. */
  api: (
    account: TestAccount,
    method: string,
    path: string,
    body?: unknown,
    region?: Region,
  ) => Promise<ApiResponse>;
  /**
   * A form of the account, made through its region's API (one number
   * question, ref `n`, unless `form` says otherwise); answers its id.
   */
  createForm: (account: TestAccount, form?: Record<string, unknown>) => Promise<string>;
  /** An enabled webhook `tag` of the form, to the receiver's `/<tag>`, made through the API. */
  hookToReceiver: (account: TestAccount, formId: string, tag: string) => Promise<void>;
  /** A folder of the spec's own, empty when it starts: .data/test/scratch/<name>. */
  scratchDir: string;
  receiver: WebhookReceiver;
  nats: TestNatsServer;
  redis: TestRedisServer;
  tls: TestCertificate;
  databaseProxy: TcpProxy;
  browser: HeadlessBrowser;
  /** Clients of each region's responses (and webhooks) database, made when first used, disconnected after. */
  responsesDb: Record<Region, ResponsesPrismaClient>;
  webhooksDb: Record<Region, WebhooksPrismaClient>;
  /**
   * One more process of an app of a running region, not waited for: the
   * region's environment less `without`, with `env` over it, on ops and
   * HTTP ports of its own. Stopped after the spec.
   */
  launchApp: (
    region: Region,
    app: AppName,
    options?: { env?: Record<string, string>; without?: readonly string[]; onLine?: (line: string) => void },
  ) => Promise<AppProcess>;
}

// The setup of an e2e spec, declared once here rather than in every spec:
// the global database, fresh accounts, the regions' apps (both regions at
// once), the servers and helpers a spec asks for,
// and all of it stopped after. Call it at the top of a `describe`: it
// registers that block's beforeAll and afterAll. What it gives can be taken
// apart at once (`const { regions, accounts: { alice } } = useTestRegions(...)`)
// and used in tests and hooks.
export function useTestRegions<Specs extends AccountSpecs = Record<never, never>>(
  options: E2eFixtureOptions<Specs>,
): E2eFixture<Specs> {
  const {
    accounts: accountSpecs = {} as Specs,
    extraEnv,
    privateNats,
    privateRedis,
    tls: wantsTls,
    databaseProxy: wantsProxy,
    receiver: wantsReceiver,
    browser: wantsBrowser,
    ...regionOptions
  } = options;
  const infra = testInfra();
  const db = testGlobalDatabase();
  const name = options.name ?? specName();
  const scratchDir = path.join(infra.dataDir, 'scratch', name);
  const bootFile = path.join(infra.dataDir, 'logs', name, 'boot.json');
  const made: {
    regions?: TestRegions;
    accounts: Record<string, TestAccount>;
    receiver?: WebhookReceiver;
    nats?: TestNatsServer;
    redis?: TestRedisServer;
    tls?: TestCertificate;
    databaseProxy?: TcpProxy;
    browser?: HeadlessBrowser;
  } = { accounts: {} };
  const databases = new Map<string, { $disconnect(): Promise<void> }>();
  const launched: AppProcess[] = [];
  const oneRegion = (): Region => {
    const regions = options.regions ?? ['us', 'eu'];
    if (regions.length !== 1) throw new Error('private servers are for specs of one region');
    return regions[0];
  };

  const fixture: E2eFixture<Specs> = {
    db,
    regions: lateBound('the regions', () => made.regions),
    accounts: Object.fromEntries(
      Object.keys(accountSpecs).map((name) => [
        name,
        lateBound(`account ${name}`, () => made.accounts[name]),
      ]),
    ) as AccountsOf<Specs>,
    baseUrl: (region) => fixture.regions.baseUrl(region),
    api: (account, method, route, body, region = account.region) =>
      callApi(`${fixture.regions.baseUrl(region)}${route}`, { token: account.token, method, body }),
    createForm: async (
      account,
      form = { title: 'Numbers', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
    ) => {
      const created = await fixture.api(account, 'POST', '/forms', form);
      if (created.status !== 201) throw new Error(`form not created: ${created.status} ${created.text}`);
      return created.body.id as string;
    },
    hookToReceiver: async (account, formId, tag) => {
      const url = fixture.receiver.url(`/${tag}`);
      const hook = await fixture.api(account, 'PUT', `/forms/${formId}/webhooks/${tag}`, {
        url,
        enabled: true,
      });
      if (hook.status !== 200) throw new Error(`webhook not created: ${hook.status} ${hook.text}`);
    },
    scratchDir,
    receiver: lateBound('the receiver', () => made.receiver),
    nats: lateBound('the private NATS server', () => made.nats),
    redis: lateBound('the private Redis server', () => made.redis),
    tls: lateBound('the certificate', () => made.tls),
    databaseProxy: lateBound('the database proxy', () => made.databaseProxy),
    browser: lateBound('the browser', () => made.browser),
    responsesDb: perRegion((region) => database(`formline_responses_${region}`, createResponsesDatabase)),
    webhooksDb: perRegion((region) => database(`formline_webhooks_${region}`, createWebhooksDatabase)),
    launchApp: async (region, app, { env = {}, without = [], onLine } = {}) => {
      const settings = fixture.regions.stacks[region]!.settings;
      const opsPort = await freePort();
      const appEnv: Record<string, string> = {
        ...appEnvironment(app, { ...settings, opsPorts: { ...settings.opsPorts, [app]: opsPort } }),
        ...(app === 'gateway' || app === 'media' ? { HTTP_PORT: String(await freePort()) } : {}),
      };
      for (const name of without) delete appEnv[name];
      Object.assign(appEnv, env);
      const child = new AppProcess({
        label: `${region} ${app}-extra`,
        entry: fixture.regions.stacks[region]!.app(app).options.entry,
        env: appEnv,
        opsPort,
        onLine: (_label, line) => onLine?.(line),
      });
      launched.push(child);
      return child;
    },
  };

  function perRegion<Client>(client: (region: Region) => Client): Record<Region, Client> {
    return {
      get us() {
        return client('us');
      },
      get eu() {
        return client('eu');
      },
    };
  }

  function database<Client extends { $disconnect(): Promise<void> }>(
    name: string,
    connect: (url: string) => Client,
  ): Client {
    let client = databases.get(name) as Client | undefined;
    if (!client) {
      client = connect(databaseUrl(infra, name));
      databases.set(name, client);
    }
    return client;
  }

  beforeAll(async () => {
    const times = { began: Date.now(), servers: 0, accounts: 0, regions: 0 };
    rmSync(scratchDir, { recursive: true, force: true });
    mkdirSync(scratchDir, { recursive: true });
    const servers: Promise<unknown>[] = [];
    const tls = wantsTls ? makeTestCertificate(path.join(scratchDir, 'tls')) : undefined;
    made.tls = tls;
    const argsOf = (server: true | { args: readonly string[] }) => (server === true ? [] : server.args);
    if (privateNats) {
      const tlsArgs = tls ? ['--tls', '--tlscert', tls.certFile, '--tlskey', tls.keyFile] : [];
      const args = [...argsOf(privateNats), ...tlsArgs];
      made.nats = new TestNatsServer(await freePort(), path.join(scratchDir, 'nats'), args);
      servers.push(made.nats.start());
    }
    if (privateRedis) {
      made.redis = new TestRedisServer(await freePort(), undefined, { tls, args: argsOf(privateRedis) });
      servers.push(made.redis.start());
    }
    if (wantsProxy) {
      made.databaseProxy = new TcpProxy(await freePort(), Number(new URL(infra.databaseHostUrl).port));
      servers.push(made.databaseProxy.start());
    }
    if (wantsReceiver) servers.push(WebhookReceiver.start().then((receiver) => (made.receiver = receiver)));
    if (wantsBrowser) made.browser = launchHeadlessBrowser();
    await Promise.all(servers);
    times.servers = Date.now();
    // Accounts are rows in the global database, made before the apps start:
    // made while ten processes boot, on a starved machine, their transactions
    // outwaited Prisma's 2 s to start one.
    for (const [account, spec] of Object.entries(accountSpecs)) {
      const { password, language } =
        typeof spec === 'string' ? { password: undefined, language: undefined } : spec;
      const region = typeof spec === 'string' ? spec : spec.region;
      made.accounts[account] = await createTestAccount(db, region, { password, language });
    }
    times.accounts = Date.now();
    const region = made.nats || made.redis ? oneRegion() : undefined;
    made.regions = await startTestRegions({
      ...regionOptions,
      name,
      natsUrl: made.nats && region ? { [region]: made.nats.url } : undefined,
      redisUrl: made.redis && region ? { [region]: made.redis.url } : undefined,
      databaseHostUrl: made.databaseProxy
        ? `postgresql://postgres@127.0.0.1:${made.databaseProxy.port}`
        : undefined,
      extraEnv: typeof extraEnv === 'function' ? extraEnv(fixture) : extraEnv,
    });
    times.regions = Date.now();
    writeBootTimes(bootFile, times, fixture.regions);
  });

  afterAll(async () => {
    const stopping = Date.now();
    await Promise.all(launched.map((app) => app.stop()));
    await made.regions?.stop();
    if (made.regions) recordStopTime(bootFile, Date.now() - stopping);
    await made.browser?.close();
    await Promise.all([
      made.nats?.stop(),
      made.redis?.stop(),
      made.databaseProxy?.stop(),
      made.receiver?.stop(),
    ]);
    await Promise.all([db, ...databases.values()].map((client) => client.$disconnect()));
    // Now that the apps have exited, every line of their start has been read.
    made.regions?.assertQuietStart();
  });

  return fixture;
}

// How long the apps took to stop (SIGTERM to exit), beside the boot times.
function recordStopTime(file: string, stopMs: number): void {
  if (!existsSync(file)) return;
  const boot = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...boot, stop: stopMs }, null, 2)}\n`);
}

// The running spec file's name, `forms-api` for test/e2e/forms-api.e2e-spec.ts.
function specName(): string {
  const { testPath } = expect.getState();
  if (!testPath) throw new Error('useTestRegions runs in a Jest test file');
  return path.basename(testPath).replace(/\.(e2e-|int-)?spec\.ts$/, '');
}

// Where a spec's setup went (.data/test/logs/<name>/boot.json), in ms from the
// start of its beforeAll: its own servers, its accounts, its apps (each app's
// first line and first ready answer, from its spawn).
function writeBootTimes(
  file: string,
  times: { began: number; servers: number; accounts: number; regions: number },
  regions: TestRegions,
): void {
  const since = (at: number | undefined, from = times.began) => (at === undefined ? null : at - from);
  const apps = Object.values(regions.stacks).flatMap((stack) =>
    [...stack.apps.values()].map((app) => [
      app.options.label,
      {
        spawned: since(app.startedAt),
        firstLine: since(app.firstLineAt, app.startedAt),
        ready: since(app.readyAt, app.startedAt),
      },
    ]),
  );
  const boot = {
    setup: since(Date.now()),
    servers: since(times.servers),
    accounts: since(times.accounts),
    regions: since(times.regions),
    apps: Object.fromEntries(apps),
  };
  writeFileSync(file, `${JSON.stringify(boot, null, 2)}\n`);
}
