import { DomainError } from '@formline/errors';
import { applyPatch, parsePatchOperations } from './json-patch';

const roots = ['title', 'settings'];
const document = { title: 'Old', settings: { is_public: true, meta: { allow_indexing: true } }, fields: [] };

describe('JSON Patch', () => {
  it('replaces, adds and removes under the allowed roots', () => {
    const patched = applyPatch(
      document,
      parsePatchOperations([
        { op: 'replace', path: '/title', value: 'New' },
        { op: 'replace', path: '/settings/is_public', value: false },
        { op: 'add', path: '/settings/meta/title', value: 'Meta' },
        { op: 'remove', path: '/settings/meta/allow_indexing' },
      ]),
      roots,
    );
    expect(patched).toEqual({
      title: 'New',
      settings: { is_public: false, meta: { title: 'Meta' } },
      fields: [],
    });
    expect(document.title).toBe('Old');
  });

  it('creates missing objects on add, as for /settings/meta/image', () => {
    const patched = applyPatch(
      document,
      [{ op: 'add', path: '/settings/meta/image/href', value: 'https://x/y.png' }],
      roots,
    );
    expect(patched.settings.meta).toEqual({ allow_indexing: true, image: { href: 'https://x/y.png' } });
  });

  it.each([
    [[{ op: 'replace', path: '/fields', value: [] }], '[0].path'],
    [[{ op: 'replace', path: '/settings/nothing', value: 1 }], '[0].path'],
    [
      [
        { op: 'remove', path: '/title' },
        { op: 'replace', path: '/id', value: 'x' },
      ],
      '[1].path',
    ],
  ])('refuses %j, naming the operation', (operations, field) => {
    try {
      applyPatch(document, parsePatchOperations(operations), roots);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).details?.map((d) => d.field)).toContain(field);
    }
  });

  it.each([
    [{}],
    [[]],
    [[{ op: 'move', path: '/title', from: '/x' }]],
    [[{ op: 'replace', path: 'title', value: 1 }]],
  ])('refuses a body that is not a patch: %j', (body) => {
    expect(() => parsePatchOperations(body)).toThrow(DomainError);
  });
});
