import { ExportRows } from './results-export-rows.mapper';

const bytes = (text: string) => new TextEncoder().encode(text);
// Decoded whole (a chunk may cut a character), the byte order mark kept.
const text = (parts: Uint8Array[]) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(Uint8Array.from(parts.flatMap((part) => [...part])));

// Feeds `whole` in chunks cut at every `size` bytes; gives back what was handed on to be saved.
function feed(rows: ExportRows, whole: string, size: number): string {
  const all = bytes(whole);
  const saved: Uint8Array[] = [];
  for (let at = 0; at < all.length; at += size) saved.push(...rows.push(all.subarray(at, at + size)));
  return text(saved);
}

const csvHeader = '\uFEFFtoken,response_type,Your name?\r\n';
const csvRows = [
  'aaa1,completed,Ada\r\n',
  // A quoted cell holding a line break, a comma and doubled quotes: one row.
  'bbb2,completed,"Grace\r\nsaid ""hi"", then\nleft"\r\n',
  'ccc3,completed,Alan\r\n',
];
const jsonRows = [
  '{"token":"aaa1","answers":[]}\n',
  '{"token":"bbb2","answers":[{"text":"a\\nb \\"q\\""}]}\n',
  '{"token":"ccc3","answers":[]}\n',
];

describe('the rows of a streamed export', () => {
  it.each([1, 2, 3, 7, 1000])(
    'counts CSV rows over chunks of %i bytes, quoted line breaks inside a row',
    (size) => {
      const rows = new ExportRows('csv');
      const whole = csvHeader + csvRows.join('');
      expect(feed(rows, whole, size)).toBe(whole);
      expect(rows.end()).toEqual([]);
      expect(rows.rows).toBe(3);
      expect(rows.resumeAfter).toBe('ccc3');
    },
  );

  it.each([1, 5, 1000])('counts JSON lines over chunks of %i bytes', (size) => {
    const rows = new ExportRows('jsonl');
    expect(feed(rows, jsonRows.join(''), size)).toBe(jsonRows.join(''));
    expect(rows.rows).toBe(3);
    expect(rows.resumeAfter).toBe('ccc3');
  });

  it('hands on a chunk of many rows as one part, not one a row', () => {
    const rows = new ExportRows('jsonl');
    expect(rows.push(bytes(jsonRows.join('')))).toHaveLength(1);
    // The waiting bytes of a row, then the rest of the chunk up to its last row end.
    expect(rows.push(bytes('{"token":"d'))).toEqual([]);
    const parts = rows.push(bytes('dd4"}\n{"token":"eee5"}\n{"tok'));
    expect(parts).toHaveLength(2);
    expect(text(parts)).toBe('{"token":"ddd4"}\n{"token":"eee5"}\n');
    expect(rows.resumeAfter).toBe('eee5');
  });

  it('hands on only whole rows: a cut row waits for its end', () => {
    const rows = new ExportRows('csv');
    // Cut inside the quoted line break of the second row.
    const cut = csvHeader + csvRows[0] + 'bbb2,completed,"Grace\r\n';
    expect(feed(rows, cut, 1000)).toBe(csvHeader + csvRows[0]);
    expect(rows.rows).toBe(1);
    expect(rows.resumeAfter).toBe('aaa1');
  });

  it('resumes after the last whole row: the cut row dropped, the resumed header too', () => {
    const rows = new ExportRows('csv');
    // The first stream breaks inside the second row's quoted cell.
    const firstStream = csvHeader + csvRows[0] + csvRows[1].slice(0, 20);
    let saved = feed(rows, firstStream, 4);
    expect(rows.resumeAfter).toBe('aaa1');
    rows.restart();
    // The API's stream after `aaa1`: its header again, then the rest.
    saved += feed(rows, csvHeader + csvRows[1] + csvRows[2], 3);
    saved += text(rows.end());
    expect(saved).toBe(csvHeader + csvRows.join(''));
    expect(rows.rows).toBe(3);
  });

  it('resumes JSON lines after the last whole line, even one with quotes and escaped line breaks', () => {
    const rows = new ExportRows('jsonl');
    let saved = feed(rows, jsonRows[0] + jsonRows[1] + jsonRows[2].slice(0, 9), 6);
    expect(rows.resumeAfter).toBe('bbb2');
    rows.restart();
    saved += feed(rows, jsonRows[2], 6);
    expect(saved).toBe(jsonRows.join(''));
    expect(rows.rows).toBe(3);
  });

  it('has no resume point before the first whole row, and keeps the header it saved', () => {
    const rows = new ExportRows('csv');
    expect(feed(rows, csvHeader + 'aaa1,comp', 5)).toBe(csvHeader);
    expect(rows.resumeAfter).toBeUndefined();
    rows.restart();
    // Started over (no `after`): the header comes again and is not saved twice.
    expect(feed(rows, csvHeader + csvRows[0], 5)).toBe(csvRows[0]);
  });

  it('counts a last row without a line end at the proper end, and no blank line', () => {
    const rows = new ExportRows('jsonl');
    expect(feed(rows, `${jsonRows[0]}\n{"token":"zzz9"}`, 1000)).toBe(jsonRows[0]);
    expect(text(rows.end())).toBe('{"token":"zzz9"}');
    expect(rows.rows).toBe(2);
    expect(rows.resumeAfter).toBe('zzz9');
  });

  it('reads a quoted first cell as the token', () => {
    const rows = new ExportRows('csv');
    feed(rows, `${csvHeader}"a""b",completed,x\r\n`, 1000);
    expect(rows.resumeAfter).toBe('a"b');
  });
});
