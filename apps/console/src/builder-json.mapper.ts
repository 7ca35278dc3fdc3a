import { type ConsoleTexts, englishTexts, type TextKey, type TextParams } from './console.texts';

// The builder's JSON view: the text the owner types into a form definition,
// and a path the API names (`fields[2].properties.choices[0].label`) into the
// line and column of the text where it is. JSON.parse says neither where a
// value sits nor, in words every browser shares, where the text went wrong;
// this reads JSON as JSON.parse does (RFC 8259) and keeps both.

export interface TextPosition {
  /** From 1, as editors count. */
  line: number;
  column: number;
}

export type JsonRead =
  { ok: true; value: unknown; paths: Map<string, number> } | ({ ok: false; message: string } & TextPosition);

class JsonProblem extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const whitespace = /[ \t\n\r]*/y;
const escapes: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
// Deeper than any form definition nests: a bound, so a pasted text cannot overflow the stack.
const maxDepth = 64;

/** The path as the API writes it: `fields[2].title`. */
export function pathText(segments: ReadonlyArray<string | number>): string {
  return segments
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}

class Reader {
  private at = 0;
  readonly paths = new Map<string, number>();

  constructor(
    private readonly text: string,
    private readonly texts: ConsoleTexts,
  ) {}

  document(): unknown {
    const value = this.value([], 0);
    this.space();
    if (this.at < this.text.length) this.fail('jsonRead.trailing');
    return value;
  }

  private fail(key: TextKey, params?: TextParams): never {
    throw new JsonProblem(this.at, this.texts.t(key, params));
  }

  private space(): void {
    whitespace.lastIndex = this.at;
    whitespace.exec(this.text);
    this.at = whitespace.lastIndex;
  }

  private value(path: Array<string | number>, depth: number): unknown {
    if (depth > maxDepth) this.fail('jsonRead.deep');
    this.space();
    if (!this.paths.has(pathText(path))) this.paths.set(pathText(path), this.at);
    const char = this.text[this.at];
    if (char === '{') return this.object(path, depth);
    if (char === '[') return this.array(path, depth);
    if (char === '"') return this.string();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    numberPattern.lastIndex = this.at;
    const number = numberPattern.exec(this.text);
    if (number) {
      this.at = numberPattern.lastIndex;
      return Number(number[0]);
    }
    if (char === undefined) this.fail('jsonRead.early');
    this.fail('jsonRead.unexpected', { char: JSON.stringify(char) });
  }

  private object(path: Array<string | number>, depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    this.space();
    if (this.text[this.at] === '}') {
      this.at += 1;
      return result;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.fail('jsonRead.name');
      const keyAt = this.at;
      const key = this.string();
      // The line of `"key":` is where the owner looks for a property.
      this.paths.set(pathText([...path, key]), keyAt);
      this.space();
      if (this.text[this.at] !== ':') this.fail('jsonRead.colon');
      this.at += 1;
      // As JSON.parse: an own property, even one named __proto__.
      Object.defineProperty(result, key, {
        value: this.value([...path, key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.space();
      const next = this.text[this.at];
      this.at += 1;
      if (next === '}') return result;
      if (next !== ',') {
        this.at -= 1;
        this.fail('jsonRead.afterProperty');
      }
    }
  }

  private array(path: Array<string | number>, depth: number): unknown[] {
    const result: unknown[] = [];
    this.at += 1;
    this.space();
    if (this.text[this.at] === ']') {
      this.at += 1;
      return result;
    }
    for (;;) {
      result.push(this.value([...path, result.length], depth + 1));
      this.space();
      const next = this.text[this.at];
      this.at += 1;
      if (next === ']') return result;
      if (next !== ',') {
        this.at -= 1;
        this.fail('jsonRead.afterItem');
      }
    }
  }

  private string(): string {
    let result = '';
    this.at += 1;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.fail('jsonRead.unclosed');
      if (char === '"') {
        this.at += 1;
        return result;
      }
      if (char < ' ') this.fail('jsonRead.control');
      if (char === '\\') {
        const escaped = this.text[this.at + 1];
        if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) {
          result += String.fromCharCode(parseInt(this.text.slice(this.at + 2, this.at + 6), 16));
          this.at += 6;
          continue;
        }
        if (escaped === undefined || !(escaped in escapes)) this.fail('jsonRead.escape');
        result += escapes[escaped];
        this.at += 2;
        continue;
      }
      result += char;
      this.at += 1;
    }
  }
}

/** The value of the text, or where and why it is not JSON. */
export function readJson(text: string, texts: ConsoleTexts = englishTexts): JsonRead {
  const reader = new Reader(text, texts);
  try {
    return { ok: true, value: reader.document(), paths: reader.paths };
  } catch (error) {
    if (!(error instanceof JsonProblem)) throw error;
    return { ok: false, message: error.message, ...positionOf(text, error.offset) };
  }
}

export function positionOf(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** `fields[2].properties.choices[0]` into its segments; undefined when it is not such a path. */
export function pathSegments(path: string): Array<string | number> | undefined {
  const segments: Array<string | number> = [];
  const part = /(?:^|\.)([A-Za-z_$][\w$-]*)|\[(\d+)\]/y;
  let at = 0;
  while (at < path.length) {
    part.lastIndex = at;
    const found = part.exec(path);
    if (!found) return undefined;
    segments.push(found[1] ?? Number(found[2]));
    at = part.lastIndex;
  }
  return segments;
}

/**
 * Where the API's path is in the text: the value (or the property) it names,
 * or the nearest enclosing one that is there (a missing `title` points at its
 * question). Undefined when the text is not JSON or the path names nothing in it.
 */
export function positionOfPath(text: string, path: string): TextPosition | undefined {
  const read = readJson(text);
  const segments = pathSegments(path);
  if (!read.ok || !segments) return undefined;
  for (let length = segments.length; length >= 0; length -= 1) {
    const offset = read.paths.get(pathText(segments.slice(0, length)));
    if (offset !== undefined) return positionOf(text, offset);
  }
  return undefined;
}
