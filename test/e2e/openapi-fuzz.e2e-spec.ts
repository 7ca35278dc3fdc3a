import fc from 'fast-check';
import { readinessStatus } from '@formline/stack';
import { callApi, fetchReadingEarlyAnswer, useTestRegions } from '@formline/testing';

// Property-based fuzzing of the whole API, as the served /openapi.json
// describes it: every route and method gets generated hostile requests (wrong
// types, missing and unknown properties, prototype keys at every level, huge
// and deeply nested bodies, long strings, NUL and lone surrogates, odd path
// ids, odd headers, with and without a token). Whatever the request: never a
// 5xx, always the error body on a 4xx, an answer within a bound, every app
// still ready afterwards, and a submission made after the fuzz still reaches
// its webhook. FUZZ_RUNS sets the number of requests (default 300, ~20 s).
const runs = Number(process.env.FUZZ_RUNS ?? 300);
const answerBoundMs = 15_000;

// A JSON document as a tree, so that keys such as `__proto__` stay ordinary
// keys up to the text sent (an object literal would set a prototype instead).
type Node =
  | { kind: 'object'; entries: Array<[string, Node]> }
  | { kind: 'array'; items: Node[] }
  | { kind: 'value'; value: string | number | boolean | null };

function toJson(node: Node): string {
  switch (node.kind) {
    case 'object':
      return `{${node.entries.map(([key, value]) => `${JSON.stringify(key)}:${toJson(value)}`).join(',')}}`;
    case 'array':
      return `[${node.items.map(toJson).join(',')}]`;
    case 'value':
      return JSON.stringify(node.value);
  }
}

function fromValue(value: unknown): Node {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(fromValue) };
  if (typeof value === 'object' && value !== null)
    return { kind: 'object', entries: Object.entries(value).map(([key, item]) => [key, fromValue(item)]) };
  return { kind: 'value', value: value as string | number | boolean | null };
}

const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'x\ud800',
    '\udc00y',
    '\ud800\ud800',
    '__proto__',
    'constructor',
    'prototype',
    '..',
    '../../etc/passwd',
    '%00',
    'NaN',
    '-1',
    '1e999',
    'null',
    '\u2028\u2029',
    '\ufeff',
    '<script>alert(1)</script>',
    "'; drop table forms; --",
    '🙂'.repeat(50),
    'é'.repeat(5_000),
    'x'.repeat(20_000),
    `a@${'.'.repeat(50_000)}@`,
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'title', 'answers'),
  fc.constantFrom('fields', 'settings', 'hidden', 'url', 'type', 'op', 'path', 'value', 'name', 'scopes'),
  hostileText,
);

const hostileNode: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText.map((value): Node => ({ kind: 'value', value })),
    fc
      .constantFrom<number | boolean | null>(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, true, false, null)
      .map((value): Node => ({ kind: 'value', value })),
    fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ kind: 'array', items })),
    fc
      .array(fc.tuple(hostileKey, tie('node')), { maxLength: 4 })
      .map((entries): Node => ({ kind: 'object', entries })),
  ),
})).node;

// Edits a known good body: a hostile property added, a value replaced, or one removed, anywhere.
type Edit = { at: number; action: 'add' | 'replace' | 'remove'; key: string; node: Node };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  action: fc.constantFrom('add', 'replace', 'remove'),
  key: hostileKey,
  node: hostileNode,
});

function applyEdits(base: Node, edits: readonly Edit[]): Node {
  const tree = structuredClone(base);
  for (const { at, action, key, node } of edits) {
    const containers: Node[] = [];
    const visit = (n: Node) => {
      if (n.kind !== 'value') containers.push(n);
      if (n.kind === 'object') n.entries.forEach(([, child]) => visit(child));
      if (n.kind === 'array') n.items.forEach(visit);
    };
    visit(tree);
    if (containers.length === 0) return node;
    const target = containers[at % containers.length];
    if (target.kind === 'object') {
      const index = at % Math.max(target.entries.length, 1);
      if (action === 'add' || target.entries.length === 0) target.entries.push([key, node]);
      else if (action === 'replace') target.entries[index][1] = node;
      else target.entries.splice(index, 1);
    } else if (target.kind === 'array') {
      const index = at % Math.max(target.items.length, 1);
      if (action === 'add' || target.items.length === 0) target.items.push(node);
      else if (action === 'replace') target.items[index] = node;
      else target.items.splice(index, 1);
    }
  }
  return tree;
}

const bigBodies = [
  '['.repeat(10_000) + ']'.repeat(10_000),
  '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
  JSON.stringify({ title: 'x'.repeat(700_000) }),
  JSON.stringify({
    answers: Array.from({ length: 5_000 }, () => ({ field: { ref: 'a' }, type: 'text', text: 'x' })),
  }),
  JSON.stringify(Array.from({ length: 10_000 }, () => ({ op: 'replace', path: '/title', value: 'x' }))),
  JSON.stringify({ hidden: Array.from({ length: 10_000 }, (_, i) => `h${i}`), title: 't' }),
  '{"title": "x", "title": "y"}',
  '{',
  'not json',
  '',
  '\u0000',
  '"\\ud800"',
];

// encodeURIComponent, except that a lone surrogate is sent as its WTF-8
// bytes (encodeURIComponent throws on it): the server must refuse it.
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

interface Operation {
  method: string;
  path: string;
  query: string[];
  headers: string[];
  contentTypes: string[];
}

describe('fuzzing the API document', () => {
  const { regions, receiver, accounts } = useTestRegions({
    regions: ['us'],
    receiver: true,
    extraEnv: {
      RATE_LIMIT_REQUESTS: '0',
      LOGIN_RATE_LIMIT_ATTEMPTS: '0',
      PASSWORD_CHECKS_PER_EMAIL: '0',
      PASSWORD_CHECKS_PER_ADDRESS: '0',
    },
    accounts: { canary: 'us', fuzzer: 'us' },
  });
  // The canary's form and webhook: the fuzz never holds its token.
  const { canary, fuzzer } = accounts;
  let base: string;
  let operations: Operation[];
  let goodBodies: Record<string, unknown>;

  beforeAll(async () => {
    base = regions.baseUrl('us');
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as any;
    operations = Object.entries<any>(document.paths).flatMap(([path, byMethod]) =>
      Object.entries<any>(byMethod).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        query: (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
        headers: (operation.parameters ?? []).filter((p: any) => p.in === 'header').map((p: any) => p.name),
        contentTypes: Object.keys(operation.requestBody?.content ?? {}),
      })),
    );
    const hook = await callApi(`${base}/forms/${canary.formId}/webhooks/canary`, {
      token: canary.token,
      method: 'PUT',
      body: { url: receiver.url('/canary'), enabled: true },
    });
    expect(hook.status).toBe(200);
    goodBodies = {
      'POST /forms': { title: 'T', fields: [{ ref: 'a', title: 'A', type: 'short_text' }], hidden: ['h'] },
      'PUT /forms/{form_id}': { title: 'T', fields: [{ ref: 'a', title: 'A', type: 'short_text' }] },
      'PATCH /forms/{form_id}': [{ op: 'replace', path: '/title', value: 'T' }],
      'POST /forms/{form_id}/submissions': {
        hidden: { h: 'v' },
        answers: [{ field: { ref: 'a' }, type: 'text', text: 't' }],
      },
      'PUT /forms/{form_id}/webhooks/{tag}': { url: receiver.url('/fuzz'), enabled: true, secret: 's' },
      'POST /forms/{form_id}/webhooks/{tag}': { url: receiver.url('/fuzz'), enabled: false },
      'POST /workspaces': { name: 'W' },
      'PATCH /workspaces/{workspace_id}': [{ op: 'replace', path: '/name', value: 'W' }],
      'POST /tokens': { name: 'T', scopes: ['forms:read'] },
    };
  });

  const pathValue = (name: string) =>
    fc.oneof(
      fc.constant(name === 'form_id' ? '{form}' : name === 'tag' ? 'fuzz' : 'abc123'),
      fc.constant('{canary}'),
      hostileText.map(percentEncode),
      fc.constantFrom('%00', '%ED%A0%80', '%C0%AF', '%2E%2E', '%', '%zz', '%FF', 'x'.repeat(300), '..%2F..'),
    );

  const requestOf = (operation: Operation) =>
    fc.record({
      path: fc.tuple(...[...operation.path.matchAll(/\{([^{}]+)\}/g)].map((m) => pathValue(m[1]))),
      query: fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...operation.query, '__proto__', 'constructor'), hostileText),
          hostileText,
        ),
        { maxLength: 3 },
      ),
      token: fc.constantFrom<'own' | 'none' | 'garbage' | 'basic'>('own', 'own', 'none', 'garbage', 'basic'),
      contentType: fc.constantFrom(
        ...operation.contentTypes,
        ...operation.contentTypes,
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json;;;charset=',
      ),
      headers: fc.array(
        fc.tuple(
          fc.constantFrom(
            ...operation.headers,
            'If-Match',
            'Idempotency-Key',
            'X-Request-Id',
            'Accept',
            'X-Odd',
          ),
          fc.oneof(
            fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
            fc.constantFrom('"1"', '*', 'W/"x"', '', 'x'.repeat(5000), '\u00e9\u00ff'),
          ),
        ),
        { maxLength: 3 },
      ),
      body: fc.oneof(
        fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => ({ edits })),
        hostileNode.map((node) => ({ node })),
        fc.constantFrom(...bigBodies).map((text) => ({ text })),
        fc.constant({ none: true }),
      ),
    });

  it('answers every hostile request with a 4xx and the error body, or a success, in time', async () => {
    const failures: string[] = [];
    const anyRequest = fc
      .nat({ max: operations.length - 1 })
      .chain((index) =>
        requestOf(operations[index]).map((request) => ({ operation: operations[index], request })),
      );
    await fc.assert(
      fc.asyncProperty(anyRequest, async ({ operation, request }) => {
        let index = 0;
        const path = operation.path.replace(/\{[^{}]+\}/g, () => {
          const value = request.path[index++];
          return value === '{form}' ? fuzzer.formId : value === '{canary}' ? canary.formId : value;
        });
        const query = request.query
          .map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`)
          .join('&');
        const url = `${base}${path}${query ? `?${query}` : ''}`;
        const headers = new Headers();
        for (const [name, value] of request.headers) {
          try {
            headers.append(name, value);
          } catch {
            // fetch refuses some header values itself; they never leave the client.
          }
        }
        if (request.token === 'own') headers.set('authorization', `bearer ${fuzzer.token}`);
        if (request.token === 'garbage') headers.set('authorization', 'bearer tfp_\u00ff\u00fe');
        if (request.token === 'basic') headers.set('authorization', `Basic ${btoa('x@example.com:pw')}`);
        let body: string | undefined;
        if (operation.method !== 'GET' && operation.method !== 'HEAD' && !('none' in request.body)) {
          headers.set('content-type', request.contentType);
          const good = fromValue(goodBodies[`${operation.method} ${operation.path}`] ?? {});
          body =
            'edits' in request.body
              ? toJson(applyEdits(good, request.body.edits))
              : 'node' in request.body
                ? toJson(request.body.node)
                : request.body.text;
        }
        const started = Date.now();
        let response: Response;
        try {
          // A large hostile body may be refused before it is read: the early
          // answer is read over a raw socket, never lost to `write EPIPE`.
          response = await fetchReadingEarlyAnswer(url, {
            method: operation.method,
            headers,
            body,
            signal: AbortSignal.timeout(answerBoundMs),
          });
        } catch (error) {
          failures.push(`${operation.method} ${url.slice(0, 200)}: no answer (${String(error)})`);
          return;
        }
        const text = await response.text();
        const said = `${operation.method} ${url.slice(0, 200)} [${body?.slice(0, 200)}] -> ${response.status} ${text.slice(0, 300)} (${Date.now() - started} ms)`;
        if (response.status >= 500) failures.push(said);
        else if (response.status >= 400 && !response.headers.get('content-type')?.includes('text/html')) {
          let parsed: any;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (typeof parsed?.code !== 'string' || typeof parsed?.description !== 'string')
            failures.push(`no error body: ${said}`);
        }
      }),
      { numRuns: runs, endOnFailure: true },
    );
    expect(failures).toEqual([]);

    // Every app survived and is ready, and the pipeline still delivers.
    for (const [name, app] of regions.stacks.us!.apps) {
      expect([name, app.hasExited()]).toEqual([name, false]);
      expect([name, await readinessStatus(app.options.opsPort)]).toEqual([name, 200]);
    }
    const submitted = await callApi(`${base}/forms/${canary.formId}/submissions`, {
      method: 'POST',
      body: { answers: [] },
    });
    expect(submitted.status).toBe(201);
    await receiver.until('/canary', (all) =>
      all.some((request) => request.body.includes(submitted.body.token as string)),
    );
  });
});
