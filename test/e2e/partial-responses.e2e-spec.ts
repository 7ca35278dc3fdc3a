import { createHmac, randomBytes } from 'node:crypto';
import { Subjects } from '@formline/contracts';
import { callApi, sampleValue, scrapeMetrics, useTestRegions } from '@formline/testing';

// Partial responses through the real apps: webhooks subscribed with Typeform's
// `event_types`, progress saved before the final submit (one response per
// progress key, completed in place by the submission), listed by
// `response_type`, and delivered to `form_response_partial` subscribers
// through the outbox, JetStream, the webhooks service and the dispatcher.
describe('partial responses', () => {
  const fixture = useTestRegions({
    regions: ['us'],
    receiver: true,
    browser: true,
    accounts: { alice: 'us' },
  });
  const { regions, receiver, browser, accounts } = fixture;
  const responsesDb = fixture.responsesDb.us;
  const { alice } = accounts;

  const api = (method: string, path: string, body?: unknown) =>
    callApi(`${regions.baseUrl('us')}${path}`, { token: alice.token, method, body });
  const anonymous = (path: string, body: unknown) =>
    callApi(`${regions.baseUrl('us')}${path}`, { method: 'POST', body });

  const newForm = async (settings: Record<string, unknown>): Promise<string> => {
    const created = await api('POST', '/forms', {
      title: 'Onboarding',
      settings,
      fields: [
        { ref: 'name', title: 'Name?', type: 'short_text', validations: { required: true } },
        { ref: 'seats', title: 'Seats?', type: 'number', validations: { required: true } },
      ],
    });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const name = (text: string) => ({ field: { ref: 'name' }, type: 'text', text });
  const seats = { field: { ref: 'seats' }, type: 'number', number: 3 };
  const newKey = () => randomBytes(16).toString('hex');

  describe('webhook event_types', () => {
    it("stores Typeform's documented body and returns every kind, off unless subscribed", async () => {
      const formId = await newForm({});
      const hook = (tag: string, method = 'GET', body?: unknown) =>
        api(method, `/forms/${formId}/webhooks/${tag}`, body);

      const partial = await hook('partials', 'PUT', {
        url: 'https://example.com/partials',
        enabled: true,
        event_types: { form_response_partial: true },
      });
      expect([200, 201]).toContain(partial.status);
      expect(partial.body.event_types).toEqual({ form_response: false, form_response_partial: true });
      expect((await hook('partials')).body.event_types).toEqual({
        form_response: false,
        form_response_partial: true,
      });

      // Without event_types: Typeform's default, completed submissions only.
      await hook('plain', 'PUT', { url: 'https://example.com/plain', enabled: true });
      expect((await hook('plain')).body.event_types).toEqual({
        form_response: true,
        form_response_partial: false,
      });

      // A change names only the kinds it changes; toggling `enabled` keeps them all.
      await hook('plain', 'PUT', { event_types: { form_response_partial: true } });
      await hook('plain', 'PUT', { enabled: false });
      expect((await hook('plain')).body.event_types).toEqual({
        form_response: true,
        form_response_partial: true,
      });
      const listed = await api('GET', `/forms/${formId}/webhooks`);
      expect(listed.body.items.map((item: { event_types: unknown }) => item.event_types)).toEqual([
        { form_response: false, form_response_partial: true },
        { form_response: true, form_response_partial: true },
      ]);
    });

    it('refuses an event type it does not know, naming it, rather than dropping it', async () => {
      const formId = await newForm({});
      const refused = await api('PUT', `/forms/${formId}/webhooks/typo`, {
        url: 'https://example.com/typo',
        enabled: true,
        event_types: { form_response_partials: true },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(refused.body.details)).toContain('form_response_partials');
      expect((await api('GET', `/forms/${formId}/webhooks/typo`)).status).toBe(404);
    });
  });

  it('saves progress as one response that the final submission completes, and delivers both kinds', async () => {
    const formId = await newForm({ milestones: [{ field_ref: 'name' }] });
    const secret = 'partial-secret';
    await api('PUT', `/forms/${formId}/webhooks/partials`, {
      url: receiver.url(`/partials-${formId}`),
      enabled: true,
      secret,
      event_types: { form_response_partial: true },
    });
    await api('PUT', `/forms/${formId}/webhooks/completes`, {
      url: receiver.url(`/completes-${formId}`),
      enabled: true,
    });
    const key = newKey();
    const partialPath = `/forms/${formId}/submissions/partial`;

    // Anonymous, as the respondent's page sends it; required answers may wait.
    const first = await anonymous(partialPath, { progress_key: key, answers: [name('Ada')] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      response_type: 'partial',
      submitted_at: '0001-01-01T00:00:00Z',
      answers: [{ field: { ref: 'name' }, text: 'Ada' }],
    });
    expect(first.body.ending).toBeUndefined();
    const token = first.body.token as string;
    // The same save again (a retry): the same response, nothing new announced.
    const again = await anonymous(partialPath, { progress_key: key, answers: [name('Ada')] });
    expect(again.status).toBe(200);
    expect(again.body.token).toBe(token);
    const changed = await anonymous(partialPath, { progress_key: key, answers: [name('Ada L.')] });
    expect(changed.body).toMatchObject({ token, response_type: 'partial' });
    // Another respondent who only started.
    const started = await anonymous(partialPath, { progress_key: newKey(), answers: [] });
    expect(started.body.response_type).toBe('started');

    const list = async (query = '') =>
      (await api('GET', `/forms/${formId}/responses${query}`)).body as {
        total_items: number;
        items: Array<{ token: string; response_type: string }>;
      };
    // Typeform lists completed responses unless response_type asks for others.
    expect((await list()).total_items).toBe(0);
    expect((await list('?response_type=partial')).items.map((r) => [r.token, r.response_type])).toEqual([
      [token, 'partial'],
    ]);
    expect((await list('?response_type=started')).items.map((r) => r.token)).toEqual([started.body.token]);
    expect((await list('?completed=false')).total_items).toBe(2);

    // The final submission names the key: it completes that response, keeping its token.
    const submitted = await anonymous(`/forms/${formId}/submissions`, {
      progress_key: key,
      answers: [name('Ada L.'), seats],
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ token, response_type: 'completed' });
    expect(submitted.body.landed_at).toBe(first.body.landed_at);
    expect(submitted.body.submitted_at).not.toBe('0001-01-01T00:00:00Z');
    expect((await list()).items.map((r) => r.token)).toEqual([token]);
    expect((await list('?response_type=partial')).total_items).toBe(0);
    expect((await list('?response_type=partial,started,completed')).total_items).toBe(2);

    // Idempotent: the same submission again replays it; a late save is refused
    // and told nothing of the completed response (whoever holds the key).
    const replayed = await anonymous(`/forms/${formId}/submissions`, {
      progress_key: key,
      answers: [name('Ada L.'), seats],
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body.token).toBe(token);
    const late = await anonymous(partialPath, { progress_key: key, answers: [name('Late')] });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({
      code: 'CONFLICT',
      description: expect.any(String),
      details: [expect.objectContaining({ code: 'RESPONSE_COMPLETED', field: 'progress_key' })],
    });
    expect(late.text).not.toContain(token);
    expect(late.text).not.toContain('Ada');
    // Nor does a save with no answers at all (the key alone).
    const keyOnly = await anonymous(partialPath, { progress_key: key, answers: [] });
    expect([keyOnly.status, keyOnly.text.includes(token)]).toEqual([409, false]);
    const other = await anonymous(`/forms/${formId}/submissions`, {
      progress_key: key,
      answers: [name('Someone else'), seats],
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await responsesDb.response.count({ where: { formId } })).toBe(2);

    // Exactly one event per change, written with it: two partial saves that
    // changed something, the started one, and the completion.
    // (The region's outbox also holds other specs' events, of other kinds.)
    const events = await responsesDb.outboxEvent.findMany({
      where: { subject: Subjects.responsesResponseSubmitted },
      orderBy: { createdAt: 'asc' },
    });
    const ofForm = events
      .map(
        (event) => event.payload as { event_type: string; form_response: { form_id: string; token: string } },
      )
      .filter((event) => event.form_response.form_id === formId);
    expect(ofForm.map((event) => event.event_type)).toEqual([
      'form_response_partial',
      'form_response_partial',
      'form_response_partial',
      'form_response',
    ]);

    // Partial subscribers get the partials, signed like every delivery; the others only the completion.
    const partials = await receiver.until(`/partials-${formId}`, (requests) => requests.length >= 3);
    const bodies = partials.map((delivery) => JSON.parse(delivery.body));
    expect(bodies.every((body) => body.event_type === 'form_response_partial')).toBe(true);
    const ada = bodies.filter((body) => body.form_response.token === token);
    expect(ada.map((body) => body.form_response.answers[0].text).sort()).toEqual(['Ada', 'Ada L.']);
    expect(ada[0].form_response).toMatchObject({ form_id: formId, submitted_at: '0001-01-01T00:00:00Z' });
    for (const delivery of partials) {
      const expected = createHmac('sha256', secret).update(delivery.body).digest('base64');
      expect(delivery.headers['typeform-signature']).toBe(`sha256=${expected}`);
    }
    const [completion] = await receiver.until(`/completes-${formId}`, (requests) => requests.length >= 1);
    expect(JSON.parse(completion.body)).toMatchObject({
      event_type: 'form_response',
      form_response: { token, answers: [{ text: 'Ada L.' }, { number: 3 }] },
    });
  });

  it('filters partial responses on their last save, and sends them to every webhook when the form says so', async () => {
    const formId = await newForm({ partial_responses_to_all_integrations: true });
    // Subscribed to completed responses only.
    await api('PUT', `/forms/${formId}/webhooks/completes`, {
      url: receiver.url(`/all-${formId}`),
      enabled: true,
    });
    const landedAt = `${new Date(Date.now() - 2 * 3_600_000).toISOString().slice(0, 19)}Z`;
    const saved = await anonymous(`/forms/${formId}/submissions/partial`, {
      progress_key: newKey(),
      landed_at: landedAt,
      answers: [name('Ada')],
    });
    expect(saved.status).toBe(200);
    // Landed two hours ago, saved now: `since` an hour ago finds it, `until` then does not.
    const anHourAgo = Math.floor((Date.now() - 3_600_000) / 1000);
    const list = async (bound: string) =>
      (await api('GET', `/forms/${formId}/responses?response_type=partial&${bound}=${anHourAgo}`)).body;
    const since = await list('since');
    expect(since.items.map((r: { token: string }) => r.token)).toEqual([saved.body.token]);
    expect(since.items[0]).toMatchObject({ landed_at: landedAt, submitted_at: '0001-01-01T00:00:00Z' });
    expect((await list('until')).total_items).toBe(0);

    const [delivered] = await receiver.until(`/all-${formId}`, (requests) => requests.length >= 1);
    expect(JSON.parse(delivered.body)).toMatchObject({
      event_type: 'form_response_partial',
      form_response: {
        token: saved.body.token,
        definition: { settings: { partial_responses_to_all_integrations: true } },
      },
    });
  });

  it('bounds and checks a partial save like a submission', async () => {
    const formId = await newForm({});
    const path = `/forms/${formId}/submissions/partial`;
    const noKey = await anonymous(path, { answers: [name('Ada')] });
    expect(noKey.status).toBe(400);
    expect(JSON.stringify(noKey.body.details)).toContain('progress_key');
    expect((await anonymous(path, { progress_key: 'short', answers: [] })).status).toBe(400);
    expect((await anonymous(path, { progress_key: 'x'.repeat(129), answers: [] })).status).toBe(400);
    const wrongType = await anonymous(path, {
      progress_key: newKey(),
      answers: [{ field: { ref: 'seats' }, type: 'number', number: 'three' }],
    });
    expect(wrongType.status).toBe(400);
    const unknownField = await anonymous(path, {
      progress_key: newKey(),
      answers: [{ field: { ref: 'nope' }, type: 'text', text: 'x' }],
    });
    expect(unknownField.status).toBe(400);
    expect(await responsesDb.response.count({ where: { formId } })).toBe(0);
  });

  it('sends saves that arrive together in shared messages, each kept under its own key', async () => {
    const formId = await newForm({});
    const ops = regions.stacks.us!.settings.opsPorts.gateway;
    const batchMessages = async () =>
      sampleValue((await scrapeMetrics(ops)).samples, 'formline_nats_request_duration_seconds_count', {
        subject: Subjects.responsesSubmissionProgressBatch,
      });
    const before = await batchMessages();
    const keys = Array.from({ length: 30 }, newKey);
    const saves = await Promise.all(
      keys.map((progress_key, i) =>
        anonymous(`/forms/${formId}/submissions/partial`, { progress_key, answers: [name(`Saver${i}`)] }),
      ),
    );
    expect(saves.map((save) => save.status)).toEqual(keys.map(() => 200));
    saves.forEach((save, i) =>
      expect(save.body.answers).toEqual([expect.objectContaining({ text: `Saver${i}` })]),
    );
    const messages = (await batchMessages()) - before;
    expect(messages).toBeGreaterThan(0);
    expect(messages).toBeLessThan(keys.length);
    expect(await responsesDb.response.count({ where: { formId, responseType: 'partial' } })).toBe(
      keys.length,
    );
  });

  it('refuses partial saves on a form with autosave off and no milestone', async () => {
    const formId = await newForm({ autosave_progress: false });
    const refused = await anonymous(`/forms/${formId}/submissions/partial`, {
      progress_key: newKey(),
      answers: [name('Ada')],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([expect.objectContaining({ code: 'PARTIAL_RESPONSES_OFF' })]);
    // The form still takes submissions, with or without a key.
    const submitted = await anonymous(`/forms/${formId}/submissions`, {
      progress_key: newKey(),
      answers: [name('Ada'), seats],
    });
    expect(submitted.status).toBe(201);
  });

  // The respondent's page in headless Chromium: a partial reaches the webhook
  // subscribed to partials while the respondent is still answering, then the
  // final submission completes that same response.
  it.each([
    ['at the milestone', { autosave_progress: false, milestones: [{ field_ref: 'name' }] }],
    ['as autosave goes', {}],
  ])('the page sends progress %s, and its submission completes it', async (_when, settings) => {
    const formId = await newForm(settings);
    await api('PUT', `/forms/${formId}/webhooks/partials`, {
      url: receiver.url(`/page-partials-${formId}`),
      enabled: true,
      event_types: { form_response_partial: true },
    });
    await api('PUT', `/forms/${formId}/webhooks/completes`, {
      url: receiver.url(`/page-completes-${formId}`),
      enabled: true,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${regions.baseUrl('us')}/to/${formId}`);
    await page.getByRole('textbox').fill('Ada');
    await page.keyboard.press('Enter');
    expect(await page.locator('form.block h1').innerText()).toContain('Seats?');

    // Arrives while the respondent is on the next question.
    const [partial] = await receiver.until(`/page-partials-${formId}`, (requests) => requests.length >= 1);
    const partialEvent = JSON.parse(partial.body);
    expect(partialEvent).toMatchObject({
      event_type: 'form_response_partial',
      form_response: { form_id: formId, answers: [{ field: { ref: 'name' }, text: 'Ada' }] },
    });
    const token = partialEvent.form_response.token as string;

    await page.getByRole('spinbutton').fill('3');
    await page.keyboard.press('Enter');
    await page.locator('section.ending').waitFor();
    const [completion] = await receiver.until(
      `/page-completes-${formId}`,
      (requests) => requests.length >= 1,
    );
    expect(JSON.parse(completion.body)).toMatchObject({
      event_type: 'form_response',
      form_response: { token, answers: [{ text: 'Ada' }, { number: 3 }] },
    });
    const listed = await api('GET', `/forms/${formId}/responses?response_type=partial,started,completed`);
    expect(
      listed.body.items.map((r: { token: string; response_type: string }) => [r.token, r.response_type]),
    ).toEqual([[token, 'completed']]);
    await context.close();
  });
});
