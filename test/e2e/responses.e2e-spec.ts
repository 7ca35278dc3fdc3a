import { Subjects } from '@formline/contracts';
import {
  callApi,
  type ApiResponse,
  sampleValue,
  scrapeMetrics,
  type TestAccount,
  useTestRegions,
} from '@formline/testing';

// Submissions and the Responses API through both regions' real gateway, forms
// and responses services, with each region's own responses database.
describe('responses', () => {
  const { regions, responsesDb, accounts } = useTestRegions({
    apps: ['gateway', 'global', 'responses'],
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { alice, bob } = accounts;
  let aliceForm: string;
  let bobForm: string;

  const definition = {
    title: 'Survey',
    fields: [
      { ref: 'name', title: 'Name?', type: 'short_text', validations: { required: true, max_length: 20 } },
      { ref: 'email', title: 'Email?', type: 'email' },
      {
        ref: 'color',
        title: 'Colour?',
        type: 'multiple_choice',
        properties: {
          choices: [
            { ref: 'red', label: 'Red' },
            { ref: 'blue', label: 'Blue' },
          ],
        },
      },
      { ref: 'rating', title: 'Rate us', type: 'rating', properties: { steps: 5 } },
      { ref: 'why', title: 'Why blue?', type: 'long_text' },
    ],
    hidden: ['source'],
    thankyou_screens: [{ ref: 'red_end', title: 'Red!' }],
    logic: [
      {
        type: 'field',
        ref: 'color',
        actions: [
          {
            action: 'add',
            details: { target: { type: 'variable', value: 'score' }, value: { type: 'constant', value: 10 } },
            condition: { op: 'always', vars: [] },
          },
          {
            action: 'jump',
            details: { to: { type: 'thankyou', value: 'red_end' } },
            condition: {
              op: 'is',
              vars: [
                { type: 'field', value: 'color' },
                { type: 'choice', value: 'red' },
              ],
            },
          },
        ],
      },
    ],
  };

  beforeAll(async () => {
    aliceForm = (await api(alice, 'POST', '/forms', definition)).body.id;
    bobForm = (await api(bob, 'POST', '/forms', definition, undefined, 'eu')).body.id;
  });

  function api(
    account: TestAccount | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    region: 'us' | 'eu' = 'us',
  ): Promise<ApiResponse> {
    return callApi(`${regions.baseUrl(region)}${path}`, { token: account?.token, method, body, headers });
  }

  const answersOf = (name: string, color: 'red' | 'blue', extra: object[] = []) => [
    { field: { ref: 'name' }, type: 'text', text: name },
    { field: { ref: 'color' }, type: 'choice', choice: { ref: color } },
    ...extra,
  ];
  const submit = (
    formId: string,
    body: unknown,
    headers?: Record<string, string>,
    region: 'us' | 'eu' = 'us',
  ) => api(undefined, 'POST', `/forms/${formId}/submissions`, body, headers, region);

  it('accepts a public submission without a token, evaluating the logic', async () => {
    const response = await submit(aliceForm, { answers: answersOf('Ann', 'red'), hidden: { source: 'ads' } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      calculated: { score: 10 },
      variables: [
        { key: 'price', type: 'number', number: 0 },
        { key: 'score', type: 'number', number: 10 },
      ],
      hidden: { source: 'ads' },
      ending: { ref: 'red_end' },
    });
    expect(response.body.answers.map((a: { field: { ref: string } }) => a.field.ref)).toEqual([
      'name',
      'color',
    ]);
    expect(response.body.answers[1].choice).toEqual({ id: expect.any(String), ref: 'red', label: 'Red' });
  });

  it('stores the response in the region of the account only', async () => {
    const eu = await submit(bobForm, { answers: answersOf('Eve', 'blue') }, undefined, 'eu');
    expect(eu.status).toBe(201);
    expect(await responsesDb.eu.response.count({ where: { id: eu.body.token } })).toBe(1);
    expect(await responsesDb.us.response.count({ where: { formId: bobForm } })).toBe(0);
  });

  it('redirects a submission sent to the other region with 307, storing nothing there', async () => {
    const before = await responsesDb.us.response.count();
    const misdirected = await fetch(`${regions.baseUrl('us')}/forms/${bobForm}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: answersOf('Eve', 'blue') }),
      redirect: 'manual',
    });
    expect(misdirected.status).toBe(307);
    expect(misdirected.headers.get('location')).toBe(`${regions.baseUrl('eu')}/forms/${bobForm}/submissions`);
    expect(await responsesDb.us.response.count()).toBe(before);
    // A client that follows redirects lands in the right region.
    const followed = await fetch(`${regions.baseUrl('us')}/forms/${bobForm}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: answersOf('Eve', 'blue') }),
    });
    expect(followed.status).toBe(201);
    const { token } = (await followed.json()) as { token: string };
    expect(await responsesDb.eu.response.count({ where: { id: token } })).toBe(1);
  });

  it('lists responses on the account region, and nothing on the other (region rule 2)', async () => {
    const here = await api(bob, 'GET', `/forms/${bobForm}/responses`, undefined, undefined, 'eu');
    expect(here.status).toBe(200);
    expect(here.body.total_items).toBeGreaterThan(0);
    const there = await api(bob, 'GET', `/forms/${bobForm}/responses`, undefined, undefined, 'us');
    expect(there.status).toBe(200);
    expect(there.body).toEqual({ total_items: 0, page_count: 0, items: [] });
  });

  it('deletes nothing through the other region, and deletes in the right one', async () => {
    const eu = await submit(bobForm, { answers: answersOf('Del', 'blue') }, undefined, 'eu');
    const path = `/forms/${bobForm}/responses?included_response_ids=${eu.body.token}`;
    expect((await api(bob, 'DELETE', path, undefined, undefined, 'us')).status).toBe(200);
    expect(await responsesDb.eu.response.count({ where: { id: eu.body.token } })).toBe(1);
    expect((await api(bob, 'DELETE', path, undefined, undefined, 'eu')).status).toBe(200);
    expect(await responsesDb.eu.response.count({ where: { id: eu.body.token } })).toBe(0);
  });

  it.each([
    ['an unknown question', [{ field: { ref: 'nope' }, type: 'text', text: 'x' }], 'answers[2].field'],
    ['a wrong answer type', [{ field: { ref: 'email' }, type: 'text', text: 'x' }], 'answers[2].type'],
    [
      'an invalid email',
      [{ field: { ref: 'email' }, type: 'email', email: 'not-an-email' }],
      'answers[2].email',
    ],
    ['a rating out of range', [{ field: { ref: 'rating' }, type: 'number', number: 6 }], 'answers[2].number'],
  ])('refuses %s with 400 naming the answer', async (_, extra, field) => {
    const response = await submit(aliceForm, { answers: answersOf('Ann', 'blue', extra) });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ field })]);
  });

  it('refuses a missing required answer, an unknown hidden field and an answer off the path', async () => {
    const response = await submit(aliceForm, {
      answers: [
        { field: { ref: 'color' }, type: 'choice', choice: { ref: 'red' } },
        { field: { ref: 'why' }, type: 'text', text: 'after the red ending' },
      ],
      hidden: { campaign: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { code: string; field: string }) => [d.code, d.field])).toEqual(
      expect.arrayContaining([
        ['UNKNOWN_HIDDEN_FIELD', 'hidden.campaign'],
        ['NOT_ON_PATH', 'answers[1]'],
        ['REQUIRED', 'name'],
      ]),
    );
  });

  it('counts a retried submission once with an Idempotency-Key', async () => {
    const body = { answers: answersOf('Idem', 'blue') };
    const headers = { 'idempotency-key': `key-${Date.now()}` };
    const first = await submit(aliceForm, body, headers);
    const again = await submit(aliceForm, body, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.token).toBe(first.body.token);
    expect(
      await responsesDb.us.response.count({ where: { formId: aliceForm, searchText: { contains: 'idem' } } }),
    ).toBe(1);
    const other = await submit(aliceForm, { answers: answersOf('Other', 'blue') }, headers);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('sends submissions that arrive together in shared messages, each answered and stored as its own', async () => {
    const ops = regions.stacks.us!.settings.opsPorts.gateway;
    const batchMessages = async () =>
      sampleValue((await scrapeMetrics(ops)).samples, 'formline_nats_request_duration_seconds_count', {
        subject: Subjects.responsesSubmissionCreateBatch,
      });
    const before = await batchMessages();
    const names = Array.from({ length: 40 }, (_, i) => `Together${i}`);
    const [invalid, ...answers] = await Promise.all([
      submit(aliceForm, { answers: answersOf('', 'red').slice(1) }),
      ...names.map((name) => submit(aliceForm, { answers: answersOf(name, 'red') })),
    ]);
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual([expect.objectContaining({ code: 'REQUIRED', field: 'name' })]);
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 201));
    answers.forEach((answer, i) =>
      expect(answer.body.answers).toContainEqual(expect.objectContaining({ text: names[i] })),
    );
    expect(new Set(answers.map((answer) => answer.body.token)).size).toBe(names.length);
    const messages = (await batchMessages()) - before;
    expect(messages).toBeGreaterThan(0);
    expect(messages).toBeLessThan(names.length);
    expect(
      await responsesDb.us.response.count({
        where: { formId: aliceForm, searchText: { contains: 'together' } },
      }),
    ).toBe(names.length);
  });

  describe('private forms', () => {
    let privateForm: string;
    beforeAll(async () => {
      privateForm = (await api(alice, 'POST', '/forms', { ...definition, settings: { is_public: false } }))
        .body.id;
    });

    it('needs a token of the owner with responses:write', async () => {
      const anonymous = await submit(privateForm, { answers: answersOf('Ann', 'blue') });
      expect(anonymous.status).toBe(401);
      const stranger = await api(bob, 'POST', `/forms/${privateForm}/submissions`, {
        answers: answersOf('Ann', 'blue'),
      });
      expect(stranger.status).toBe(404);
      const owner = await api(alice, 'POST', `/forms/${privateForm}/submissions`, {
        answers: answersOf('Ann', 'blue'),
      });
      expect(owner.status).toBe(201);
    });
  });
});
