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

describe('JSON Patch and prototypes', () => {
  const pollutes = [
    '/settings/__proto__/show_number_of_submissions',
    '/settings/constructor/prototype/polluted',
    '/settings/meta/__proto__',
    '/settings/prototype',
    '/title/constructor',
  ];

  it.each(pollutes.flatMap((path) => ['add', 'replace', 'remove'].map((op) => [op, path])))(
    'refuses %s %s, naming the path, and pollutes nothing',
    (op, path) => {
      const before = structuredClone(document);
      const operations = [{ op, path, value: true }];
      let refusal: unknown;
      try {
        applyPatch(document, operations as never, roots);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DomainError);
      expect((refusal as DomainError).details?.[0]?.field).toBe('[0].path');
      expect(({} as Record<string, unknown>).show_number_of_submissions).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('x');
      expect(document).toEqual(before);
    },
  );

  it('refuses the prototype paths when parsing, naming the operation', () => {
    expect(() => parsePatchOperations([{ op: 'add', path: '/settings/__proto__/x', value: true }])).toThrow(
      DomainError,
    );
    try {
      parsePatchOperations([
        { op: 'replace', path: '/title', value: 'ok' },
        { op: 'add', path: '/a/constructor/prototype/b', value: 1 },
      ]);
    } catch (error) {
      expect((error as DomainError).details?.[0]?.field).toBe('[1].path');
    }
  });

  it('walks own properties only: an inherited name does not exist', () => {
    expect(() =>
      applyPatch(document, [{ op: 'replace', path: '/settings/toString', value: 1 }], roots),
    ).toThrow(DomainError);
    // `add` creates an own object of that name; the prototype's method stays as it was.
    const patched = applyPatch(
      document,
      [{ op: 'add', path: '/settings/hasOwnProperty/x', value: 1 }],
      roots,
    );
    expect(Object.hasOwn(patched.settings, 'hasOwnProperty')).toBe(true);
    expect(typeof Object.prototype.hasOwnProperty).toBe('function');
  });

  it('changes nothing when one operation of many is refused', () => {
    const before = structuredClone(document);
    expect(() =>
      applyPatch(
        document,
        [
          { op: 'replace', path: '/title', value: 'New' },
          { op: 'replace', path: '/settings/missing', value: 1 },
        ],
        roots,
      ),
    ).toThrow(DomainError);
    expect(document).toEqual(before);
  });

  it('bounds the number of operations', () => {
    const many = Array.from({ length: 101 }, () => ({ op: 'replace', path: '/title', value: 'x' }));
    expect(() => parsePatchOperations(many)).toThrow(DomainError);
    expect(parsePatchOperations(many.slice(0, 100))).toHaveLength(100);
  });
});
