import { Streams } from '@formline/contracts';
import {
  callApi,
  createTestAccount,
  eventuallyStreamEvents,
  startTestRegions,
  testGlobalDatabase,
  testInfra,
  type ApiResponse,
  type TestAccount,
  type TestRegions,
} from '@formline/testing';

// Typeform's Responses API query parameters, paging both ways, deletion, and
// the submission events on the region's JetStream stream.
describe('Responses API listing', () => {
  const db = testGlobalDatabase();
  let regions: TestRegions;
  let owner: TestAccount;
  let stranger: TestAccount;
  let formId: string;
  const tokens: string[] = []; // oldest first
  const submittedAt: string[] = [];

  const api = (account: TestAccount, method: string, path: string, body?: unknown): Promise<ApiResponse> =>
    callApi(`${regions.baseUrl('us')}${path}`, { token: account.token, method, body });
  const list = async (query = '') => {
    const response = await api(owner, 'GET', `/forms/${formId}/responses${query ? `?${query}` : ''}`);
    expect(response.status).toBe(200);
    return response.body as {
      total_items: number;
      page_count: number;
      items: Array<{ token: string; answers: unknown[] }>;
    };
  };
  const names = (page: { items: Array<{ token: string }> }) =>
    page.items.map((item) => `n${tokens.indexOf(item.token) + 1}`);

  beforeAll(async () => {
    owner = await createTestAccount(db, 'us');
    stranger = await createTestAccount(db, 'us');
    regions = await startTestRegions({
      name: 'response-listing',
      regions: ['us'],
      apps: ['gateway', 'forms', 'responses'],
    });
    formId = (
      await api(owner, 'POST', '/forms', {
        title: 'Listing',
        fields: [
          { ref: 'name', title: 'Name', type: 'short_text' },
          {
            ref: 'color',
            title: 'Colour',
            type: 'dropdown',
            properties: { choices: [{ label: 'Red' }, { label: 'Blue' }] },
          },
        ],
        hidden: ['source'],
      })
    ).body.id;
    for (let n = 1; n <= 6; n++) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: {
          answers: [
            { field: { ref: 'name' }, type: 'text', text: `n${n}` },
            { field: { ref: 'color' }, type: 'choice', choice: { label: n % 2 ? 'Red' : 'Blue' } },
          ],
          hidden: { source: n === 4 ? 'partner-site' : 'ads' },
        },
      });
      expect(response.status).toBe(201);
      tokens.push(response.body.token);
      submittedAt.push(response.body.submitted_at);
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct submission times
    }
  });

  afterAll(async () => {
    await regions?.stop();
    await db.$disconnect();
  });

  it('lists newest first, with total_items and page_count', async () => {
    const page = await list();
    expect(names(page)).toEqual(['n6', 'n5', 'n4', 'n3', 'n2', 'n1']);
    expect(page).toMatchObject({ total_items: 6, page_count: 1 });
    expect(await list('page_size=4')).toMatchObject({ total_items: 6, page_count: 2 });
  });

  it('pages towards older responses with before, and back towards newer with after', async () => {
    const first = await list('page_size=2');
    expect(names(first)).toEqual(['n6', 'n5']);
    const second = await list(`page_size=2&before=${tokens[4]}`);
    expect(names(second)).toEqual(['n4', 'n3']);
    const third = await list(`page_size=2&before=${tokens[2]}`);
    expect(names(third)).toEqual(['n2', 'n1']);
    const back = await list(`page_size=2&after=${tokens[1]}`);
    expect(names(back)).toEqual(['n4', 'n3']);
  });

  it('filters by submission time with since and until (ISO or Unix seconds)', async () => {
    expect(names(await list(`since=${encodeURIComponent(submittedAt[2])}`))).toEqual([
      'n6',
      'n5',
      'n4',
      'n3',
    ]);
    expect(names(await list(`until=${encodeURIComponent(submittedAt[1])}`))).toEqual(['n2', 'n1']);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await list(`since=${future}`)).total_items).toBe(0);
  });

  it('includes and excludes responses by id', async () => {
    expect(names(await list(`included_response_ids=${tokens[0]},${tokens[1]}`))).toEqual(['n2', 'n1']);
    expect((await list(`excluded_response_ids=${tokens[0]},${tokens[1]}`)).total_items).toBe(4);
  });

  it('filters by response type', async () => {
    expect((await list('response_type=completed')).total_items).toBe(6);
    expect((await list('response_type=partial')).total_items).toBe(0);
    expect((await list('completed=false')).total_items).toBe(0);
  });

  it('sorts oldest first on request', async () => {
    expect(names(await list('sort=submitted_at,asc'))).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  });

  it('searches answers and hidden fields with query', async () => {
    expect(names(await list('query=N4'))).toEqual(['n4']);
    expect(names(await list('query=partner'))).toEqual(['n4']);
    expect((await list('query=blue')).total_items).toBe(3);
  });

  it('shows only the answers to the requested fields', async () => {
    const page = await list('fields=color&page_size=1');
    expect(page.items[0].answers).toEqual([
      expect.objectContaining({ field: expect.objectContaining({ ref: 'color' }) }),
    ]);
  });

  it.each(['page_size=1001', 'since=yesterday', 'sort=name,asc', 'response_type=done', `after=a&before=b`])(
    'refuses %s with 400',
    async (query) => {
      const response = await api(owner, 'GET', `/forms/${formId}/responses?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    },
  );

  it("answers 404 for another account's form", async () => {
    expect((await api(stranger, 'GET', `/forms/${formId}/responses`)).status).toBe(404);
    expect(
      (await api(stranger, 'DELETE', `/forms/${formId}/responses?included_response_ids=${tokens[0]}`)).status,
    ).toBe(404);
  });

  it('publishes exactly one event per submission, with a stable event id', async () => {
    const natsUrl = testInfra().natsUrl.us;
    const mine = (events: Awaited<ReturnType<typeof eventuallyStreamEvents>>) =>
      events.filter((event) => event.data.form_response.form_id === formId);
    const events = mine(
      await eventuallyStreamEvents(natsUrl, Streams.responses.name, (all) => mine(all).length >= 6),
    );
    expect(events.map((event) => event.data.form_response.token).sort()).toEqual([...tokens].sort());
    expect(new Set(events.map((event) => event.messageId)).size).toBe(6);
    for (const event of events) {
      expect(event.messageId).toBe(event.data.event_id);
      expect(event.data.form_response.definition.fields[1]).not.toHaveProperty('properties');
      expect(event.data.form_response.submitted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(event.data).toMatchObject({
        event_type: 'form_response',
        form_response: {
          form_id: formId,
          definition: {
            id: formId,
            title: 'Listing',
            // Typeform's payload: the choice settings and choices at the top level.
            fields: [
              { ref: 'name', type: 'short_text', allow_multiple_selections: false, allow_other_choice: false },
              {
                ref: 'color',
                type: 'dropdown',
                allow_multiple_selections: false,
                allow_other_choice: false,
                choices: [
                  { id: expect.any(String), ref: expect.any(String), label: 'Red' },
                  { id: expect.any(String), ref: expect.any(String), label: 'Blue' },
                ],
              },
            ],
          },
          ending: { ref: 'default_tys' },
        },
      });
    }
  });

  it('deletes responses named by included_response_ids or included_tokens', async () => {
    expect(
      (await api(owner, 'DELETE', `/forms/${formId}/responses?included_response_ids=${tokens[0]}`)).status,
    ).toBe(200);
    expect(
      (await api(owner, 'DELETE', `/forms/${formId}/responses?included_tokens=${tokens[1]}`)).status,
    ).toBe(200);
    expect(names(await list())).toEqual(['n6', 'n5', 'n4', 'n3']);
    const nothingNamed = await api(owner, 'DELETE', `/forms/${formId}/responses`);
    expect(nothingNamed.status).toBe(400);
  });
});
