import { isPublicForm } from './form-visibility';

describe('whether a form is public', () => {
  it('is public unless its settings say is_public: false', () => {
    expect(isPublicForm({ settings: { is_public: true } })).toBe(true);
    expect(isPublicForm({ settings: {} })).toBe(true);
    expect(isPublicForm({ settings: { is_public: false } })).toBe(false);
  });
});
