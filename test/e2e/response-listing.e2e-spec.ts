import { Streams } from '@formline/contracts';
import { callApi, eventuallyStreamEvents, testInfra, useTestRegions } from '@formline/testing';

// Typeform's Responses API query parameters, paging both ways, deletion, and
// the submission events on the region's JetStream stream.
describe('Responses API listing', () => {
  const { regions, api, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    // A host outside UTC: since/until without an offset must still mean UTC.
    extraEnv: { TZ: 'America/New_York' },
    accounts: { owner: 'us', stranger: 'us' },
  });
  const { owner, stranger } = accounts;
  let formId: string;
  const tokens: string[] = []; // oldest first
  const submittedAt: string[] = [];

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
    formId = (
      await api(owner, 'POST', '/forms', {
        title: 'Listing',
        fields: [
          { ref: 'name', title: 'Name', type: 'short_text' },
          { ref: 'note', title: 'Note', type: 'long_text' },
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
    // n3 to n6 in later seconds than n1 and n2: timestamps are whole
    // seconds, so since/until can only tell seconds apart.
    for (let n = 1; n <= 6; n++) {
      if (n === 3) await untilNextSecond();
      const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: {
          answers: [
            { field: { ref: 'name' }, type: 'text', text: `n${n}` },
            ...(n === 5 ? [{ field: { ref: 'note' }, type: 'text', text: 'a note' }] : []),
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
    expect(submittedAt[1] < submittedAt[2]).toBe(true);
  });

  const untilNextSecond = () => new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));

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

  it('shows whole-second timestamps, as Typeform does', async () => {
    expect(submittedAt[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    for (const item of (await list()).items as unknown as Array<Record<string, string>>) {
      expect(item.submitted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(item.landed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  it('reads since/until without an offset as UTC on a host that is not, and until includes its second', async () => {
    const utc = (iso: string) => iso.replace('Z', ''); // 2026-11-22T23:13:39
    expect(names(await list(`since=${utc(submittedAt[2])}`))).toEqual(['n6', 'n5', 'n4', 'n3']);
    // n2 was submitted within that second, after its first millisecond.
    expect(names(await list(`until=${utc(submittedAt[1])}`))).toEqual(['n2', 'n1']);
    const unix = Date.parse(submittedAt[1]) / 1000;
    expect(names(await list(`until=${unix}`))).toEqual(['n2', 'n1']);
  });

  it('answers an empty page for a before/after token that names no response', async () => {
    for (const cursor of ['before', 'after']) {
      const page = await list(`${cursor}=${'0'.repeat(32)}`);
      expect(page).toEqual({ total_items: 0, page_count: 0, items: [] });
    }
  });

  it('refuses sort together with after or before, as Typeform does', async () => {
    for (const cursor of ['before', 'after']) {
      const response = await api(
        owner,
        'GET',
        `/forms/${formId}/responses?sort=submitted_at,asc&${cursor}=${tokens[2]}`,
      );
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ field: 'sort', in: 'query' })],
      });
    }
  });

  it('keeps only responses that answered one of answered_fields (ids or refs)', async () => {
    expect(names(await list('answered_fields=note'))).toEqual(['n5']);
    const form = await api(owner, 'GET', `/forms/${formId}`);
    const noteId = (form.body.fields as Array<{ id: string; ref: string }>).find((f) => f.ref === 'note')!.id;
    expect(names(await list(`answered_fields=${noteId}`))).toEqual(['n5']);
    expect((await list('answered_fields=note,name')).total_items).toBe(6);
    expect((await list('answered_fields=nothing')).total_items).toBe(0);
  });

  it('refuses query parameters it does not know, with the error body', async () => {
    const response = await api(owner, 'GET', `/forms/${formId}/responses?page_sise=2`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { code: 'UNKNOWN_PARAMETER', field: 'page_sise', in: 'query', description: expect.any(String) },
      ],
    });
    // Every list endpoint does the same.
    const forms = await api(owner, 'GET', '/forms?serach=x');
    expect(forms.status).toBe(400);
    expect(forms.body.details).toEqual([expect.objectContaining({ field: 'serach', in: 'query' })]);
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
      events.filter((event) => event.data.form_response?.form_id === formId);
    const events = mine(
      await eventuallyStreamEvents(natsUrl, Streams.responses.name, (all) => mine(all).length >= 6),
    );
    expect(events.map((event) => event.data.form_response.token).sort()).toEqual([...tokens].sort());
    expect(new Set(events.map((event) => event.messageId)).size).toBe(6);
    for (const event of events) {
      expect(event.messageId).toBe(event.data.event_id);
      expect(event.data.form_response.definition.fields[2]).not.toHaveProperty('properties');
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
              {
                ref: 'name',
                type: 'short_text',
                allow_multiple_selections: false,
                allow_other_choice: false,
              },
              { ref: 'note', type: 'long_text', allow_multiple_selections: false, allow_other_choice: false },
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

  it('deletes responses named in a JSON body', async () => {
    const deleted = await api(owner, 'DELETE', `/forms/${formId}/responses`, {
      included_response_ids: [tokens[2]],
    });
    expect(deleted.status).toBe(200);
    expect(names(await list())).toEqual(['n6', 'n5', 'n4']);
    const empty = await api(owner, 'DELETE', `/forms/${formId}/responses`, { included_response_ids: [] });
    expect(empty.status).toBe(400);
    const wrong = await api(owner, 'DELETE', `/forms/${formId}/responses`, { ids: [tokens[3]] });
    expect(wrong.status).toBe(400);
    expect(names(await list())).toEqual(['n6', 'n5', 'n4']);
  });
});
