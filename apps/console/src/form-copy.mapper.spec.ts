import { copyBodyOf, copyTitleOf, titleMaxLength } from './form-copy.mapper';

describe('the body that copies a form', () => {
  const read = {
    id: 'f1',
    title: 'Customer feedback',
    _links: { display: 'https://api.test/to/f1', responses: 'https://api.test/forms/f1/responses' },
    self: { href: 'https://api.test/forms/f1' },
    created_at: '2026-01-01T00:00:00Z',
    last_updated_at: '2026-01-02T00:00:00Z',
    published_at: '2026-01-02T00:00:00Z',
    workspace: { href: 'https://api.test/workspaces/w1' },
    theme: { href: 'https://api.test/themes/t1' },
    settings: { language: 'fr', is_public: true },
    hidden: ['source'],
    fields: [{ id: 'q1', ref: 'name', title: 'Your name?', type: 'short_text' }],
    logic: [{ type: 'field', ref: 'name', actions: [] }],
    thankyou_screens: [{ id: 's1', ref: 'default_tys', title: 'Thanks' }],
  };

  it('keeps the definition, its workspace and theme, titled "… (copy)", without what the API gives back only', () => {
    expect(copyBodyOf(read)).toEqual({
      title: 'Customer feedback (copy)',
      workspace: read.workspace,
      theme: read.theme,
      settings: read.settings,
      hidden: read.hidden,
      fields: read.fields,
      logic: read.logic,
      thankyou_screens: read.thankyou_screens,
    });
  });

  it('leaves the form read unchanged', () => {
    const before = JSON.stringify(read);
    copyBodyOf(read);
    expect(JSON.stringify(read)).toBe(before);
  });

  it('names an untitled form, and keeps a long title within the API’s bound, whole characters', () => {
    expect(copyTitleOf('  ')).toBe('Untitled form (copy)');
    expect(copyBodyOf({ id: 'f2' })).toEqual({ title: 'Untitled form (copy)' });
    // The API counts UTF-16 units: an emoji is two, and is never cut in half.
    const long = copyTitleOf('😀'.repeat(titleMaxLength / 2));
    expect(long.length).toBeLessThanOrEqual(titleMaxLength);
    expect(long).toBe(`${'😀'.repeat(496)}… (copy)`);
    expect(copyTitleOf('x'.repeat(titleMaxLength - 7))).toBe(`${'x'.repeat(titleMaxLength - 7)} (copy)`);
    expect(copyTitleOf('x'.repeat(titleMaxLength - 6))).toBe(`${'x'.repeat(titleMaxLength - 8)}… (copy)`);
  });
});
