import { pageTexts } from '@formline/respondent-page';
import { choices, environment, field, formOf, pageData } from './page.fixture';
import { RespondentPage } from './respondent-page.app';

// The page's screens in a DOM, from the first question to the ending, with
// a network the spec answers (the browser test drives the real one).
describe('the respondent page', () => {
  const t = pageTexts('en');
  const app = () => document.getElementById('app')!;
  const submit = () => app().querySelector('form')!.requestSubmit();
  const type = (value: string) => {
    const input = app().querySelector<HTMLInputElement>('input.text')!;
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  // What fetch answers, as far as the page reads it (jsdom has no Response).
  const reply = (status: number, body?: unknown) =>
    ({
      ok: status < 300,
      status,
      json: () => (body === undefined ? Promise.reject(new Error('no JSON')) : Promise.resolve(body)),
    }) as Response;
  const keyOf = (init: RequestInit | undefined) =>
    (init!.headers as Record<string, string>)['idempotency-key'];

  it('shows one question at a time, says a broken rule in its words, and submits the answers on the path', async () => {
    const sent: Array<{ url: string; body: unknown; key: string }> = [];
    const { env, stored } = environment({
      search: '?source=mail&other=x',
      fetch: (url, init) => {
        sent.push({
          url: url as string,
          body: JSON.parse(init!.body as string),
          key: keyOf(init),
        });
        return Promise.resolve(reply(200, { ending: { ref: 'default_tys' } }));
      },
    });
    const form = formOf(
      [
        field('name', 'short_text', { validations: { required: true, max_length: 5 } }),
        field('plan', 'multiple_choice', { properties: { choices: choices('basic', 'pro') } }),
      ],
      { hidden: ['source'], settings: { show_progress_bar: true } },
    );
    new RespondentPage(pageData(form, t), env).render();

    expect(app().querySelector('h1')!.textContent).toContain('Title of name');
    expect(app().querySelector('.progress-label')!.textContent).toBe('0 of 2 answered');
    submit();
    expect(app().querySelector('.error')!.textContent).toBe(t.required);
    type('Ada Lovelace');
    submit();
    expect(app().querySelector('.error')!.textContent).toBe('At most 5 characters');
    type('Ada');
    submit();
    // Kept in the browser's storage as the respondent goes (the form autosaves).
    expect(JSON.parse(stored.get('formline:f1')!)).toMatchObject({
      confirmed: ['name'],
      answers: { name: { text: 'Ada' } },
    });
    expect(app().querySelector('h1')!.textContent).toContain('Title of plan');
    // The last question's button says it submits.
    expect(app().querySelector('button[type=submit]')!.textContent).toBe(t.submit);
    app()
      .querySelector('form')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true }));
    expect(app().querySelector<HTMLInputElement>('input[value=pro]')!.checked).toBe(true);
    submit();
    await flush();
    await flush();

    expect(sent).toEqual([
      {
        url: 'https://us.example/forms/f1/submissions',
        key: expect.any(String),
        body: {
          progress_key: sent[0].key,
          landed_at: expect.any(String),
          hidden: { source: 'mail' },
          answers: [
            { field: { ref: 'name' }, type: 'text', text: 'Ada' },
            { field: { ref: 'plan' }, type: 'choice', choice: { ref: 'pro' } },
          ],
        },
      },
    ]);
    expect(app().querySelector('[data-ending]')!.textContent).toBe('Thanks!');
    expect(stored.has('formline:f1')).toBe(false);
  });

  it('tells a refused submission in the service words, any other failure in its own, and tries again with the same key', async () => {
    const answers = [
      reply(422, { description: 'answers[0]: not an email address' }),
      reply(503),
      reply(200, {}),
    ];
    const keys: string[] = [];
    const { env } = environment({
      fetch: (_url, init) => {
        keys.push(keyOf(init));
        return Promise.resolve(answers.shift()!);
      },
    });
    new RespondentPage(pageData(formOf([field('note', 'short_text')]), t), env).render();
    submit();
    await flush();
    await flush();
    expect(app().querySelector('.error')!.textContent).toBe('answers[0]: not an email address');
    app().querySelector<HTMLButtonElement>('.failed button')!.click();
    await flush();
    await flush();
    expect(app().querySelector('.error')!.textContent).toBe(t.submitFailed);
    app().querySelector<HTMLButtonElement>('.failed button')!.click();
    await flush();
    await flush();
    expect(app().querySelector('[data-ending]')).not.toBeNull();
    expect(new Set(keys).size).toBe(1);
  });

  it('goes back to the block before, its answer kept', () => {
    const { env } = environment();
    const form = formOf([field('a', 'short_text'), field('b', 'short_text')]);
    new RespondentPage(pageData(form, t), env).render();
    type('first');
    submit();
    app().querySelector<HTMLButtonElement>('nav button')!.click();
    expect(app().querySelector<HTMLInputElement>('input.text')!.value).toBe('first');
  });
});
