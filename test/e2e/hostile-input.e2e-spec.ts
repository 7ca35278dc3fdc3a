import { readinessStatus } from '@formline/stack';
import { callApi, useTestRegions } from '@formline/testing';

// Hostile input, each attack against the real apps: one request must never
// take a region down, poison its pipeline or pollute a process. Each is
// refused with a 4xx and the error body, and the region keeps serving.
describe('hostile input', () => {
  const { regions, receiver, accounts } = useTestRegions({
    regions: ['us'],
    receiver: true,
    extraEnv: { RATE_LIMIT_REQUESTS: '100000' },
    accounts: { alice: 'us' },
  });
  const { alice } = accounts;
  let base: string;
  let formId: string;

  beforeAll(async () => {
    base = regions.baseUrl('us');
    const created = await api('POST', '/forms', {
      title: 'Hostile',
      hidden: ['h'],
      fields: [
        { ref: 't', title: 'Text', type: 'long_text' },
        { ref: 'e', title: 'Email', type: 'email' },
      ],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    const hook = await api('PUT', `/forms/${formId}/webhooks/canary`, {
      url: receiver.url('/canary'),
      enabled: true,
    });
    expect(hook.status).toBe(200);
  });

  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    callApi(`${base}${path}`, { token: alice.token, method, body, headers });
  const submit = (body: unknown) => callApi(`${base}/forms/${formId}/submissions`, { method: 'POST', body });
  const raw = (path: string, init: RequestInit) => fetch(`${base}${path}`, init);

  const expectRefused = (
    response: { status: number; body: any },
    status: number,
    where?: { field?: string; in: string },
  ) => {
    expect(response.status).toBe(status);
    expect(response.body).toEqual(
      expect.objectContaining({ code: expect.any(String), description: expect.any(String) }),
    );
    if (where)
      expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining(where)]));
  };

  const processesUp = async () => {
    const stack = regions.stacks.us!;
    for (const [name, app] of stack.apps) {
      expect([name, app.hasExited()]).toEqual([name, false]);
      expect([name, await readinessStatus(app.options.opsPort)]).toEqual([name, 200]);
    }
  };

  it('refuses a lone surrogate or a NUL in an answer, a hidden value or a title, and webhooks keep flowing', async () => {
    expectRefused(await submit({ answers: [{ field: { ref: 't' }, type: 'text', text: 'x\ud800' }] }), 400, {
      field: 'answers[0].text',
      in: 'body',
    });
    expectRefused(await submit({ hidden: { h: '\udc00y' }, answers: [] }), 400, {
      field: 'hidden.h',
      in: 'body',
    });
    expectRefused(await submit({ answers: [{ field: { ref: 't' }, type: 'text', text: 'a\u0000b' }] }), 400, {
      field: 'answers[0].text',
      in: 'body',
    });
    expectRefused(await api('POST', '/forms', { title: 't\udc00' }), 400, { field: 'title', in: 'body' });
    expectRefused(
      await api('PATCH', `/forms/${formId}`, [{ op: 'replace', path: '/title', value: 't\ud800' }]),
      400,
      {
        field: '[0].value',
        in: 'body',
      },
    );
    // The same, as raw escapes in the JSON text.
    const escaped = await raw(`/forms/${formId}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"answers":[{"field":{"ref":"t"},"type":"text","text":"x\\ud800"}]}',
    });
    expect(escaped.status).toBe(400);

    // Nothing poisoned the outbox: the next submission is delivered.
    const accepted = await submit({
      answers: [{ field: { ref: 't' }, type: 'text', text: 'fine \ud83d\ude00' }],
    });
    expect(accepted.status).toBe(201);
    const [delivery] = await receiver.until('/canary', (all) =>
      all.some((request) => request.body.includes(accepted.body.token as string)),
    );
    expect(delivery).toBeDefined();
    await processesUp();
  });

  it('refuses a JSON Patch through a prototype, changes nothing, and the global process stays up', async () => {
    const before = await api('GET', `/forms/${formId}`);
    for (const path of [
      '/settings/__proto__/show_number_of_submissions',
      '/settings/constructor/prototype/show_number_of_submissions',
      '/settings/prototype',
    ]) {
      const refused = await api('PATCH', `/forms/${formId}`, [
        { op: 'replace', path: '/title', value: 'Changed' },
        { op: 'add', path, value: true },
      ]);
      expectRefused(refused, 400, { field: '[1].path', in: 'body' });
    }
    // A prototype key in a body is refused wherever it is.
    const poisoned = await raw('/forms', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `bearer ${alice.token}` },
      body: '{"title":"x","settings":{"__proto__":{"is_public":false}}}',
    });
    expect(poisoned.status).toBe(400);
    expect(await poisoned.json()).toMatchObject({ details: [{ field: 'settings.__proto__', in: 'body' }] });

    await processesUp();
    const after = await api('GET', `/forms/${formId}`);
    expect(after.body).toEqual(before.body);
    // Authenticated calls still work (token checks go through forms), and so does a good patch.
    expect(
      (await api('PATCH', `/forms/${formId}`, [{ op: 'replace', path: '/title', value: 'Hostile 2' }]))
        .status,
    ).toBe(204);
  });

  it('answers the quadratic email at once with 400 while another submission is served', async () => {
    const hostile = submit({
      answers: [{ field: { ref: 'e' }, type: 'email', email: `a@${'.'.repeat(100_000)}@` }],
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const other = await submit({
      answers: [{ field: { ref: 'e' }, type: 'email', email: 'someone@example.com' }],
    });
    expect(other.status).toBe(201);
    expectRefused(await hostile, 400, { field: 'answers[0].email', in: 'body' });
  });

  it('refuses NUL in a path id or a query, deep nesting, other charsets and bad tags, with the error body', async () => {
    expectRefused(await api('GET', '/forms/%00'), 400, { field: 'form_id', in: 'path' });
    expectRefused(await api('GET', '/forms?search=a%00b'), 400, { field: 'search', in: 'query' });
    expectRefused(await api('GET', `/forms/${'x'.repeat(300)}`), 400, { field: 'form_id', in: 'path' });
    for (const body of ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)]) {
      const deep = await raw(`/forms/${formId}/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(deep.status).toBe(400);
      expect(await deep.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        description: expect.stringContaining('deeper'),
      });
    }
    const utf16 = await raw(`/forms/${formId}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: '{"answers":[]}',
    });
    expect(utf16.status).toBe(415);
    expect(await utf16.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const headers = await raw('/forms', {
      headers: { authorization: `bearer ${alice.token}`, 'x-big': 'a'.repeat(40_000) },
    });
    expect(headers.status).toBe(431);
    expect(await headers.json()).toEqual({ code: 'HEADERS_TOO_LARGE', description: expect.any(String) });
    for (const tag of ['%2E%2E%2Fx', '__proto__', 'constructor', 'a..b', '.hidden']) {
      expectRefused(await api('PUT', `/forms/${formId}/webhooks/${tag}`, { url: receiver.url('/x') }), 400, {
        field: 'tag',
        in: 'path',
      });
    }
    await processesUp();
  });

  it('bounds what one request may ask for, so no reply outgrows a NATS message', async () => {
    const patch = Array.from({ length: 10_000 }, () => ({ op: 'replace', path: '/nothing', value: 1 }));
    expectRefused(await api('PATCH', `/forms/${formId}`, patch), 400);
    const hidden = Array.from({ length: 10_000 }, (_, i) => `h${i}`);
    const many = await api('POST', '/forms', { title: 'Many', hidden });
    expectRefused(many, 400, { field: 'hidden', in: 'body' });
    expect(many.body.details.length).toBeLessThanOrEqual(50);
  });

  it('pages large responses by size instead of timing out, and refuses a submission too large to store', async () => {
    const fields = Array.from({ length: 40 }, (_, i) => ({
      ref: `q${i}`,
      title: `Q${i}`,
      type: 'long_text',
    }));
    const big = (await api('POST', '/forms', { title: 'Big', fields })).body.id as string;
    const answers = (length: number) =>
      fields.map((field, i) => ({
        field: { ref: field.ref },
        type: 'text',
        text: String(i % 10).repeat(length),
      }));
    const send = (length: number) =>
      callApi(`${base}/forms/${big}/submissions`, { method: 'POST', body: { answers: answers(length) } });
    // 40 answers of 10,000 characters: a body the gateway takes, a response too large to store.
    expectRefused(await send(10_000), 413);
    for (let i = 0; i < 3; i++) expect((await send(9_000)).status).toBe(201);

    const first = await api('GET', `/forms/${big}/responses?page_size=25`);
    expect(first.status).toBe(200);
    expect(first.body.total_items).toBe(3);
    expect(first.body.items).toHaveLength(2);
    const last = first.body.items[1].token as string;
    const rest = await api('GET', `/forms/${big}/responses?page_size=25&before=${last}`);
    expect(rest.status).toBe(200);
    expect(rest.body.items).toHaveLength(1);
  });
});
