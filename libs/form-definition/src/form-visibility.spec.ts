import { isPublicForm, mayRespond } from './form-visibility';

describe('whether a form is public', () => {
  it('is public unless its settings say is_public: false', () => {
    expect(isPublicForm({ settings: { is_public: true } })).toBe(true);
    expect(isPublicForm({ settings: {} })).toBe(true);
    expect(isPublicForm({ settings: { is_public: false } })).toBe(false);
  });
});

describe('who may answer a form', () => {
  const form = (isPublic: boolean) => ({ isPublic, accountId: 'a1' });

  it('lets anyone answer a public form', () => {
    expect(mayRespond(form(true), undefined)).toBe(true);
    expect(mayRespond(form(true), 'a2')).toBe(true);
  });

  it('lets only a token of its own account answer a private form', () => {
    expect(mayRespond(form(false), 'a1')).toBe(true);
    expect(mayRespond(form(false), 'a2')).toBe(false);
    expect(mayRespond(form(false), undefined)).toBe(false);
  });
});
