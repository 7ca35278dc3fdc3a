import { pathSegments, pathText, positionOf, positionOfPath, readJson } from './builder-json.mapper';

describe("the builder's JSON view: reading the text and finding the API's paths in it", () => {
  const form = JSON.stringify(
    {
      title: 'Trip',
      fields: [
        { ref: 'a', title: 'Name?', type: 'short_text' },
        { ref: 'b', title: 'Stars', type: 'rating', properties: { steps: 40, choices: [{ label: 'x' }] } },
      ],
    },
    null,
    2,
  );

  it('reads what JSON.parse reads, the same value', () => {
    for (const text of [
      form,
      '[]',
      '{}',
      '"a\\u00e9\\n"',
      '-1.5e3',
      'true',
      'null',
      ' [1, {"a": [false]}] ',
    ]) {
      const read = readJson(text);
      expect(read).toMatchObject({ ok: true });
      expect(read.ok && read.value).toEqual(JSON.parse(text));
    }
    // An own property named __proto__, as JSON.parse makes it, not a prototype.
    const read = readJson('{"__proto__": {"polluted": true}}');
    expect(read.ok && Object.getPrototypeOf(read.value)).toBe(Object.prototype);
    expect(read.ok && Object.keys(read.value as object)).toEqual(['__proto__']);
  });

  it('says where the text stops being JSON, by line and column', () => {
    expect(readJson('{\n  "title": "a",\n  "fields": [}\n')).toEqual({
      ok: false,
      message: 'Unexpected "}"',
      line: 3,
      column: 14,
    });
    expect(readJson('{"a": 1 "b": 2}')).toMatchObject({ ok: false, line: 1, column: 9 });
    expect(readJson('{title: 1}')).toMatchObject({
      ok: false,
      message: 'Expected a property name in double quotes',
      column: 2,
    });
    expect(readJson('{"a": "b')).toMatchObject({ ok: false, message: 'A string is not closed' });
    expect(readJson('{"a": "\\x"}')).toMatchObject({ ok: false, message: 'Unknown escape in a string' });
    expect(readJson('[1,]')).toMatchObject({ ok: false, column: 4 });
    expect(readJson('')).toMatchObject({ ok: false, message: 'The JSON ends too early' });
    expect(readJson('{} x')).toMatchObject({ ok: false, column: 4 });
    expect(readJson('['.repeat(100) + ']'.repeat(100))).toMatchObject({
      ok: false,
      message: 'The JSON nests too deep',
    });
  });

  it("reads the API's paths, and writes them back", () => {
    expect(pathSegments('fields[1].properties.choices[0].label')).toEqual([
      'fields',
      1,
      'properties',
      'choices',
      0,
      'label',
    ]);
    expect(pathSegments('title')).toEqual(['title']);
    expect(pathSegments('fields[x]')).toBeUndefined();
    expect(pathText(['fields', 1, 'title'])).toBe('fields[1].title');
  });

  it('finds the line of the property a path names, or of the nearest one there', () => {
    const lineOf = (path: string) => positionOfPath(form, path)?.line;
    const lines = form.split('\n');
    expect(lines[lineOf('fields[1].properties.steps')! - 1]).toContain('"steps": 40');
    expect(lines[lineOf('fields[1].properties.choices[0].label')! - 1]).toContain('"label": "x"');
    expect(lines[lineOf('title')! - 1]).toContain('"title": "Trip"');
    // A property missing from the text: the object that lacks it (its opening brace, then its first property).
    const missing = lineOf('fields[0].validations.required')!;
    expect(lines[missing - 1].trim()).toBe('{');
    expect(lines[missing]).toContain('"ref": "a"');
    expect(positionOfPath('{not json', 'title')).toBeUndefined();
    expect(positionOfPath(form, 'what?ever')).toBeUndefined();
  });

  it('counts lines and columns from 1', () => {
    expect(positionOf('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(positionOf('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
