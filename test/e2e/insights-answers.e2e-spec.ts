import { randomBytes } from 'node:crypto';
import { callApi, type TestAccount, useTestRegions } from '@formline/testing';

// The distribution of a form's answers (an extension of Typeform's Insights
// API) through the real apps: submissions to a form with every question kind
// it distributes, read back per answer; counted where the account's responses
// live, zeros on the other region's address; another account's form is 404.
describe('insights: the distribution of answers', () => {
  const fixture = useTestRegions({
    apps: ['gateway', 'global', 'responses'],
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { regions, api, accounts } = fixture;
  const { alice, bob } = accounts;
  let formId: string;
  let form: { fields: Array<{ id: string; ref: string; properties?: { choices?: Choice[] } }> };

  interface Choice {
    id: string;
    ref: string;
    label: string;
  }

  const submit = (body: unknown, path = 'submissions') =>
    callApi(`${regions.baseUrl('us')}/forms/${formId}/${path}`, { method: 'POST', body });
  const answer = (ref: string, type: string, value: unknown) => ({ field: { ref }, type, [type]: value });

  beforeAll(async () => {
    const choices = (...labels: string[]) => labels.map((label) => ({ ref: label.toLowerCase(), label }));
    const created = await api(alice, 'POST', '/forms', {
      title: 'Feedback',
      fields: [
        { ref: 'name', title: 'Name', type: 'short_text' },
        {
          ref: 'uses',
          title: 'What do you use?',
          type: 'multiple_choice',
          properties: {
            allow_multiple_selection: true,
            allow_other_choice: true,
            choices: choices('Forms', 'Webhooks', 'Insights'),
          },
        },
        {
          ref: 'size',
          title: 'Team size',
          type: 'dropdown',
          properties: { choices: choices('Small', 'Large') },
        },
        { ref: 'pet', title: 'Pet', type: 'picture_choice', properties: { choices: choices('Cat', 'Dog') } },
        { ref: 'again', title: 'Again?', type: 'yes_no' },
        { ref: 'stars', title: 'Stars', type: 'rating', properties: { steps: 3 } },
        { ref: 'ease', title: 'Ease', type: 'opinion_scale', properties: { steps: 5, start_at_one: true } },
        { ref: 'nps', title: 'Recommend?', type: 'nps' },
        { ref: 'seats', title: 'Seats', type: 'number' },
      ],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    form = created.body;

    const submissions = [
      [
        answer('name', 'text', 'Ada'),
        answer('uses', 'choices', { labels: ['Forms', 'Insights'], other: 'Exports' }),
        answer('size', 'choice', { label: 'Small' }),
        answer('pet', 'choice', { label: 'Cat' }),
        answer('again', 'boolean', true),
        answer('stars', 'number', 3),
        answer('ease', 'number', 5),
        answer('nps', 'number', 10),
        answer('seats', 'number', 12),
      ],
      [
        answer('uses', 'choices', { labels: ['Forms'] }),
        answer('pet', 'choice', { label: 'Dog' }),
        answer('again', 'boolean', false),
        answer('stars', 'number', 1),
        answer('nps', 'number', 6),
        answer('seats', 'number', 2.5),
      ],
      [answer('again', 'boolean', true), answer('stars', 'number', 3)],
    ];
    for (const answers of submissions) expect((await submit({ answers })).status).toBe(201);
    // Progress saved and never submitted: not counted.
    const saved = await submit(
      {
        progress_key: randomBytes(16).toString('hex'),
        answers: [answer('again', 'boolean', false), answer('stars', 'number', 2)],
      },
      'submissions/partial',
    );
    expect(saved.status).toBe(200);
  });

  const distribution = (account: TestAccount, id: string, region = account.region) =>
    api(account, 'GET', `/insights/${id}/answers`, undefined, region);
  const field = (ref: string) => {
    const found = form.fields.find((f) => f.ref === ref)!;
    return { id: found.id, ref, title: expect.any(String) as string };
  };
  const choiceCounts = (ref: string, counts: number[]) =>
    form.fields
      .find((f) => f.ref === ref)!
      .properties!.choices!.map((choice, i) => ({
        id: choice.id,
        ref: choice.ref,
        label: choice.label,
        count: counts[i],
      }));
  const scale = (first: number, counts: number[]) => counts.map((count, i) => ({ value: first + i, count }));

  it('counts each answer of the completed responses, per question', async () => {
    const response = await distribution(alice, formId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      form: { responses_count: 3 },
      fields: [
        {
          ...field('uses'),
          type: 'multiple_choice',
          answers_count: 2,
          choices: choiceCounts('uses', [2, 0, 1]),
          other_count: 1,
        },
        { ...field('size'), type: 'dropdown', answers_count: 1, choices: choiceCounts('size', [1, 0]) },
        {
          ...field('pet'),
          type: 'picture_choice',
          answers_count: 2,
          choices: choiceCounts('pet', [1, 1]),
        },
        {
          ...field('again'),
          type: 'yes_no',
          answers_count: 3,
          values: [
            { value: true, count: 2 },
            { value: false, count: 1 },
          ],
        },
        { ...field('stars'), type: 'rating', answers_count: 3, values: scale(1, [1, 0, 2]), average: 7 / 3 },
        {
          ...field('ease'),
          type: 'opinion_scale',
          answers_count: 1,
          values: scale(1, [0, 0, 0, 0, 1]),
          average: 5,
        },
        {
          ...field('nps'),
          type: 'nps',
          answers_count: 2,
          values: scale(0, [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]),
          average: 8,
        },
        { ...field('seats'), type: 'number', answers_count: 2, average: 7.25 },
      ],
    });
  });

  it('answers as the summary does elsewhere: zeros on the other region, 404 to another account', async () => {
    const elsewhere = await distribution(alice, formId, 'eu');
    expect(elsewhere.status).toBe(200);
    const body = elsewhere.body as {
      form: { responses_count: number };
      fields: Array<{ ref: string; answers_count: number; average?: number | null }>;
    };
    expect(body.form.responses_count).toBe(0);
    expect(body.fields.map((f) => [f.ref, f.answers_count])).toEqual(
      ['uses', 'size', 'pet', 'again', 'stars', 'ease', 'nps', 'seats'].map((ref) => [ref, 0]),
    );
    expect(body.fields.find((f) => f.ref === 'seats')?.average).toBeNull();
    expect((await distribution(bob, formId)).status).toBe(404);
    expect((await distribution(bob, formId, 'us')).status).toBe(404);
  });
});
