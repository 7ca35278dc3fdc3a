import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { appNames } from '@formline/stack';
import {
  callApi,
  openApiDocumentProblems,
  sampleValue,
  scrapeMetrics,
  useTestRegions,
  eventually,
} from '@formline/testing';
import { Subjects } from '@formline/contracts';

// What an operator and an integrator get besides the API: the API document
// and its page, one request id from the caller through every log line, logs
// without secrets, and Prometheus metrics on every app that move with traffic.
describe('operability', () => {
  const { regions, accounts } = useTestRegions({
    regions: ['us'],
    // Per-RPC log lines are debug; the gateway's caches off, so each read
    // reaches the global service (the caches are read-cache.e2e-spec.ts's).
    extraEnv: { LOG_LEVEL: 'debug', READ_CACHE_TTL_MS: '0' },
    accounts: { account: 'us' },
  });
  const { account } = accounts;

  const base = () => regions.baseUrl('us');
  const opsPort = (app: (typeof appNames)[number]) => regions.stacks.us!.settings.opsPorts[app];
  const logLines = (app: (typeof appNames)[number]) =>
    readFileSync(regions.logFile('us', app), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, any>);
  const retrieve = (headers: Record<string, string> = {}) =>
    callApi(`${base()}/forms/${account.formId}`, { token: account.token, headers });

  describe('the API document', () => {
    it('is linked from the home page of the base address, JSON for clients and a page for browsers', async () => {
      const asClient = await fetch(`${base()}/`);
      expect(asClient.status).toBe(200);
      expect(asClient.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await asClient.json()).toMatchObject({
        name: 'Formline',
        region: 'us',
        documentation: '/docs',
        openapi: '/openapi.json',
        respondent_page: '/to/{form_id}',
      });
      const asBrowser = await fetch(`${base()}/`, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(asBrowser.status).toBe(200);
      expect(asBrowser.headers.get('content-type')).toMatch(/^text\/html/);
      expect(asBrowser.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await asBrowser.text()).toContain('<a href="/docs">');
    });

    it('is served at /openapi.json, valid OpenAPI 3.1, without a token', async () => {
      const response = await fetch(`${base()}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const document = (await response.json()) as Record<string, any>;
      expect(document.openapi).toBe('3.1.0');
      expect(openApiDocumentProblems(document)).toEqual([]);
      expect(document.servers.map((server: { url: string }) => server.url)).toContain(base());
    });

    it('has an operation for every route the gateway serves, and none it does not', async () => {
      const document = (await (await fetch(`${base()}/openapi.json`)).json()) as Record<string, any>;
      // The routes as NestJS mapped them in this very process, read from its
      // log (which earlier runs may have appended to).
      const pid = regions.stacks.us!.app('gateway').pid;
      const mapped = logLines('gateway')
        .filter((entry) => entry.pid === pid)
        .map((entry) => /^Mapped \{(.+), (\w+)\} route$/.exec(String(entry.msg)))
        .filter((match): match is RegExpExecArray => match !== null)
        .map(([, route, method]) => `${method.toLowerCase()} ${route.replace(/:(\w+)/g, '{$1}')}`);
      expect(mapped.length).toBeGreaterThanOrEqual(12);
      const documented = Object.entries(document.paths as Record<string, object>).flatMap(
        ([route, methods]) => Object.keys(methods).map((method) => `${method} ${route}`),
      );
      const served = [...mapped, 'get /', 'get /openapi.json', 'get /docs'];
      expect(documented.sort()).toEqual(served.sort());
      // Who may call each operation: a token with the scope; anyone, or a token
      // with the scope; the owner's email and password; or anyone (OAuth only).
      const open: string[] = [];
      for (const route of served) {
        const [method, routePath] = route.split(' ');
        const operation = document.paths[routePath][method];
        if (routePath === '/' || routePath === '/openapi.json' || routePath === '/docs') continue;
        const scope = operation['x-required-scope'] ?? operation['x-scope-if-authenticated'];
        if (operation['x-required-scope']) {
          expect(operation.security).toEqual([{ bearerAuth: [scope] }]);
        } else if (operation['x-scope-if-authenticated']) {
          expect(operation.security).toEqual([{}, { bearerAuth: [scope] }]);
        } else {
          expect([
            [route, []],
            [route, [{ basicAuth: [] }]],
          ]).toContainEqual([route, operation.security]);
          if (operation.security.length === 0) open.push(route);
          continue;
        }
        expect([route, scope]).toEqual([route, expect.stringMatching(/^\w+:(read|write)$/)]);
      }
      // Open: the OAuth endpoints, the respondent's page (public forms only)
      // and the console's files (it signs in itself).
      expect(open.sort()).toEqual([
        'get /console',
        'get /console/assets/{file}',
        'get /oauth/authorize',
        'get /to/assets/{file}',
        'get /to/{form_id}',
        'post /oauth/authorize',
        'post /oauth/revoke',
        'post /oauth/token',
      ]);
    });

    it('renders as a page at /docs that loads nothing from elsewhere', async () => {
      const response = await fetch(`${base()}/docs`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("connect-src 'self'");
      const html = await response.text();
      expect(html).toContain("fetch('openapi.json')");
      expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    });
  });

  describe('request ids', () => {
    it("follows the caller's X-Request-Id from the gateway through the global service, in every log line", async () => {
      const requestId = `trace-${Date.now()}`;
      const response = await retrieve({ 'X-Request-Id': requestId });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(requestId);
      expect(
        await eventually(
          () =>
            logLines('gateway').some(
              (entry) => entry.requestId === requestId && entry.msg === 'request completed',
            ),
          Boolean,
          5_000,
        ),
      ).toBe(true);
      const gateway = logLines('gateway').filter((entry) => entry.requestId === requestId);
      expect(gateway).toEqual([
        expect.objectContaining({ route: '/forms/:form_id', status: 200, method: 'GET', app: 'gateway' }),
      ]);
      expect(
        await eventually(
          () => logLines('global').filter((entry) => entry.requestId === requestId).length,
          (n) => n >= 2,
          5_000,
        ),
      ).toBeGreaterThanOrEqual(2);
      const forms = logLines('global').filter((entry) => entry.requestId === requestId);
      expect(forms.map((entry) => entry.subject)).toEqual([
        Subjects.accountsTokenVerify,
        Subjects.formsFormGet,
      ]);
      expect(forms.every((entry) => entry.app === 'global' && entry.region === 'us')).toBe(true);
    });

    it('makes one up when the caller sends none, or one unfit for a log line', async () => {
      for (const headers of [{}, { 'X-Request-Id': 'has spaces and "quotes"' }] as Record<string, string>[]) {
        const response = await retrieve(headers);
        const requestId = response.headers.get('x-request-id') ?? '';
        expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
        expect(
          await eventually(
            () => logLines('global').some((entry) => entry.requestId === requestId),
            Boolean,
            5_000,
          ),
        ).toBe(true);
      }
    });

    it('answers it on errors too: no token, unknown route, invalid query', async () => {
      const answers = [
        await callApi(`${base()}/forms/${account.formId}`, { headers: { 'X-Request-Id': 'e-401' } }),
        await callApi(`${base()}/no/such/route`, {
          token: account.token,
          headers: { 'X-Request-Id': 'e-404' },
        }),
        await callApi(`${base()}/forms?page_size=1000`, {
          token: account.token,
          headers: { 'X-Request-Id': 'e-400' },
        }),
      ];
      expect(answers.map((answer) => [answer.status, answer.headers.get('x-request-id')])).toEqual([
        [401, 'e-401'],
        [404, 'e-404'],
        [400, 'e-400'],
      ]);
    });
  });

  it('writes no token into any log', async () => {
    await retrieve();
    const logDir = path.dirname(regions.logFile('us', 'gateway'));
    const token = account.token;
    for (const file of readdirSync(logDir)) {
      expect([file, readFileSync(path.join(logDir, file), 'utf8').includes(token)]).toEqual([file, false]);
    }
  });

  describe('metrics', () => {
    it('are served by every app on its ops port, with process and event-loop series', async () => {
      for (const app of appNames) {
        const { samples, contentType } = await scrapeMetrics(opsPort(app));
        expect(contentType).toMatch(/^text\/plain/);
        for (const name of [
          'process_resident_memory_bytes',
          'nodejs_heap_size_used_bytes',
          'nodejs_eventloop_lag_p99_seconds',
        ]) {
          expect([
            app,
            name,
            samples.some((sample) => sample.name === name && sample.labels.app === app),
          ]).toEqual([app, name, true]);
        }
        expect(samples.find((sample) => sample.name === 'process_resident_memory_bytes')?.labels.region).toBe(
          'us',
        );
      }
    });

    it('move with traffic: requests per route and status, latency, NATS at both ends', async () => {
      const gatewayBefore = (await scrapeMetrics(opsPort('gateway'))).samples;
      const formsBefore = (await scrapeMetrics(opsPort('global'))).samples;
      for (let i = 0; i < 3; i++) expect((await retrieve()).status).toBe(200);
      expect((await callApi(`${base()}/forms/nope0000`, { token: account.token })).status).toBe(404);
      const gateway = (await scrapeMetrics(opsPort('gateway'))).samples;
      const forms = (await scrapeMetrics(opsPort('global'))).samples;
      const moved = (
        before: typeof gateway,
        after: typeof gateway,
        name: string,
        labels: Record<string, string>,
      ) => sampleValue(after, name, labels) - sampleValue(before, name, labels);

      const route = { method: 'GET', route: '/forms/:form_id' };
      expect(moved(gatewayBefore, gateway, 'formline_http_requests_total', { ...route, status: '200' })).toBe(
        3,
      );
      expect(moved(gatewayBefore, gateway, 'formline_http_requests_total', { ...route, status: '404' })).toBe(
        1,
      );
      expect(
        moved(gatewayBefore, gateway, 'formline_http_request_duration_seconds_count', {
          ...route,
          status: '200',
        }),
      ).toBe(3);
      expect(
        moved(gatewayBefore, gateway, 'formline_http_request_duration_seconds_bucket', {
          ...route,
          status: '200',
          le: '+Inf',
        }),
      ).toBe(3);
      const get = { subject: Subjects.formsFormGet };
      expect(
        moved(gatewayBefore, gateway, 'formline_nats_request_duration_seconds_count', {
          ...get,
          outcome: 'ok',
        }),
      ).toBe(3);
      expect(
        moved(gatewayBefore, gateway, 'formline_nats_request_duration_seconds_count', {
          ...get,
          outcome: 'error',
        }),
      ).toBe(1);
      expect(
        moved(formsBefore, forms, 'formline_nats_handler_duration_seconds_count', { ...get, outcome: 'ok' }),
      ).toBe(3);
      expect(
        moved(formsBefore, forms, 'formline_nats_handler_duration_seconds_count', {
          ...get,
          outcome: 'error',
        }),
      ).toBe(1);
    });

    it("expose each pipeline stage's series on the app that owns the stage", async () => {
      const text = async (app: (typeof appNames)[number]) => (await scrapeMetrics(opsPort(app))).text;
      const [responses, webhooks, dispatcher, gateway] = await Promise.all(
        (['responses', 'webhooks', 'dispatcher', 'gateway'] as const).map(text),
      );
      expect(responses).toMatch(/^formline_outbox_backlog\{app="responses",region="us"\} 0$/m);
      expect(webhooks).toContain('# TYPE formline_stream_consumer_lag gauge');
      expect(dispatcher).toContain('# TYPE formline_queue_depth gauge');
      expect(dispatcher).toMatch(
        /^formline_delivery_attempts_total\{outcome="delivered",app="dispatcher",region="us"\} 0$/m,
      );
      expect(dispatcher).toContain('# TYPE formline_delivery_attempt_duration_seconds histogram');
      expect(dispatcher).toContain('# TYPE formline_delivery_latency_seconds histogram');
      expect(gateway).not.toContain('formline_outbox_backlog');
    });
  });
});
