import { randomUUID } from 'node:crypto';
import { callApi, eventually, type ApiResponse, type TestAccount, useTestRegions } from '@formline/testing';

// Typeform's Insights summary and its right-to-be-forgotten endpoint, over
// both regions: counted and deleted only where the account's responses live.
describe('insights and right to be forgotten', () => {
  const fixture = useTestRegions({
    apps: ['gateway', 'forms', 'responses', 'webhooks'],
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { regions, api, accounts } = fixture;
  const webhooksDb = fixture.webhooksDb.us;
  const responsesDb = fixture.responsesDb.us;
  const { alice, bob } = accounts;
  let formId: string;
  let fieldIds: Record<string, string>;
  const tokens: string[] = [];

  beforeAll(async () => {
    const form = await api(alice, 'POST', '/forms', {
      title: 'Contact',
      fields: [
        { ref: 'email', title: 'Email', type: 'email' },
        { ref: 'note', title: 'Note', type: 'long_text' },
        {
          ref: 'pick',
          title: 'Pick',
          type: 'multiple_choice',
          properties: { choices: [{ label: 'A' }, { label: 'B' }] },
        },
        { ref: 'intro', title: 'Hello', type: 'statement' },
      ],
      hidden: ['contact'],
    });
    expect(form.status).toBe(201);
    formId = form.body.id;
    fieldIds = Object.fromEntries(
      (form.body.fields as Array<{ id: string; ref: string }>).map((field) => [field.ref, field.id]),
    );
    const hook = await api(alice, 'PUT', `/forms/${formId}/webhooks/rtbf`, {
      url: 'http://127.0.0.1:9/hook',
      enabled: true,
    });
    expect(hook.status).toBe(200);
    const submissions = [
      { email: 'ana@example.com', pick: 'A' },
      { email: 'carl@example.com', note: 'Please write to ANA@example.com instead', pick: 'B' },
      { email: 'dan@example.com', contact: 'Ana@Example.com' },
      { email: 'bob@example.com', note: 'nothing to see' },
    ];
    for (const s of submissions) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: {
          answers: [
            { field: { ref: 'email' }, type: 'email', email: s.email },
            ...(s.note ? [{ field: { ref: 'note' }, type: 'text', text: s.note }] : []),
            ...(s.pick ? [{ field: { ref: 'pick' }, type: 'choice', choice: { label: s.pick } }] : []),
          ],
          hidden: s.contact ? { contact: s.contact } : {},
        },
      });
      expect(response.status).toBe(201);
      tokens.push(response.body.token);
    }
  });

  const summary = (account: TestAccount, id: string, region = account.region): Promise<ApiResponse> =>
    api(account, 'GET', `/insights/${id}/summary`, undefined, region);

  it("summarises the form's responses in Typeform's shape", async () => {
    const response = await summary(alice, formId);
    expect(response.status).toBe(200);
    const counters = {
      responses_count: 4,
      total_visits: 4,
      unique_visits: 4,
      completion_rate: 100,
      average_time: expect.any(Number),
    };
    expect(response.body).toEqual({
      fields: [
        { id: fieldIds.email, ref: 'email', title: 'Email', type: 'email', views: 4, dropoffs: 0 },
        { id: fieldIds.note, ref: 'note', title: 'Note', type: 'long_text', views: 2, dropoffs: 0 },
        { id: fieldIds.pick, ref: 'pick', title: 'Pick', type: 'multiple_choice', views: 2, dropoffs: 0 },
      ],
      form: {
        summary: counters,
        platforms: [
          {
            platform: 'desktop',
            ...counters,
            responses_count: 0,
            total_visits: 0,
            unique_visits: 0,
            completion_rate: 0,
          },
          { platform: 'other', ...counters },
          {
            platform: 'phone',
            ...counters,
            responses_count: 0,
            total_visits: 0,
            unique_visits: 0,
            completion_rate: 0,
          },
          {
            platform: 'tablet',
            ...counters,
            responses_count: 0,
            total_visits: 0,
            unique_visits: 0,
            completion_rate: 0,
          },
        ],
      },
    });
  });

  it("counts nothing on the other region, and hides other accounts' forms", async () => {
    const elsewhere = await summary(alice, formId, 'eu');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.form.summary).toMatchObject({ responses_count: 0, total_visits: 0 });
    expect((elsewhere.body.fields as Array<{ views: number }>).map((field) => field.views)).toEqual([
      0, 0, 0,
    ]);
    expect((await summary(bob, formId, 'us')).status).toBe(404);
  });

  it('forgets a respondent: their responses, events and deliveries, and only theirs', async () => {
    const deliveries = () =>
      webhooksDb.delivery.findMany({ where: { webhook: { formId } }, select: { body: true } });
    expect((await eventually(deliveries, (rows) => rows.length === 4)).length).toBe(4);

    expect((await api(alice, 'DELETE', `/rtbf/${bob.accountId}/responses`, ['ana@example.com'])).status).toBe(
      404,
    );
    const wrongRegion = await api(alice, 'DELETE', `/rtbf/${alice.accountId}/responses`, ['a@b.c'], 'eu');
    expect(wrongRegion.status).toBe(421);
    expect(wrongRegion.body.code).toBe('WRONG_REGION');
    for (const bad of [[], {}, ['x'.repeat(400)]]) {
      expect((await api(alice, 'DELETE', `/rtbf/${alice.accountId}/responses`, bad)).status).toBe(400);
    }

    // A dead-lettered event PostgreSQL cannot parse as JSON (a lone surrogate
    // escape) sits in the same outbox: the erasure must not trip on it.
    const unparsable = randomUUID();
    await responsesDb.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, subject, payload, created_at, dead_lettered_at)
       VALUES ($1, 'poison', $2::json, now(), now())`,
      unparsable,
      `{"account_id":"${alice.accountId}","form_response":{"token":"x\\ud800y"}}`,
    );
    const done = await api(alice, 'DELETE', `/rtbf/${alice.accountId}/responses`, ['ANA@example.com']);
    await responsesDb.outboxEvent.delete({ where: { id: unparsable } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual([expect.any(String)]);

    const left = await api(alice, 'GET', `/forms/${formId}/responses`);
    expect((left.body.items as Array<{ token: string }>).map((item) => item.token)).toEqual([tokens[3]]);
    const bodies = (await deliveries()).map((row) => row.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain(tokens[3]);
    const events = await responsesDb.$queryRaw<Array<{ count: number }>>`
      SELECT count(*)::int AS count FROM outbox_events
       WHERE payload->'form_response'->>'token' = ANY(${tokens.slice(0, 3)}::text[])`;
    expect(events[0].count).toBe(0);
    expect((await summary(alice, formId)).body.form.summary.responses_count).toBe(1);
  });
});
