// A streamed export's bytes into whole rows as they arrive: how many
// responses have come, and the token of the last whole one, which is where a
// broken export resumes (the API's `after`). Only whole rows are handed on to
// be saved; the bytes of a row not yet ended wait (at most one row), so a
// break drops exactly the cut row and the resumed stream takes over from the
// row after the last one saved. Nothing of the export is decoded but the
// last row, and only when a resume asks for its token.
//
// JSON lines: a row ends at each LF (JSON text has none unescaped). CSV
// (RFC 4180): a row ends at an LF outside quotes, since a quoted cell may
// hold line breaks; a doubled quote inside one toggles twice, so counting
// quotes tells inside from outside. Each CSV stream starts with its header
// row (after a byte order mark): saved once, dropped from a resumed stream.
// Scanning bytes is safe: UTF-8 never puts a quote or an LF byte inside a
// character.

export type ExportFormat = 'csv' | 'jsonl';

const lf = 0x0a;
const quote = 0x22;

export class ExportRows {
  /** Whole responses so far, over every resumed stream; the CSV header is none. */
  rows = 0;
  private inQuotes = false;
  private headerSaved = false;
  /** This stream's header is still to come (CSV). */
  private expectHeader: boolean;
  /** The bytes of the row not yet ended. */
  private pending: Uint8Array[] = [];
  /** The last whole response's bytes (views, decoded only when asked). */
  private lastRow: Uint8Array[] = [];

  constructor(readonly format: ExportFormat) {
    this.expectHeader = format === 'csv';
  }

  /**
   * The parts of `chunk` (and of earlier chunks) that end whole rows, to be
   * saved in order: the bytes that waited for their row's end, then one view
   * of the chunk up to its last row end (cut only around a row dropped), not
   * one part a row, so that a million rows are not a million writes.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let start = 0;
    let saveFrom = 0;
    let last: { head: Uint8Array[]; start: number; end: number } | undefined;
    for (let end = this.nextRowEnd(chunk, 0); end !== -1; end = this.nextRowEnd(chunk, start)) {
      const head = start === 0 ? this.pending : [];
      const row = this.kind([...head, chunk.subarray(start, end + 1)]);
      if (start === 0) {
        if (row !== 'dropped') out.push(...head);
        this.pending = [];
      }
      if (row === 'dropped') {
        if (start > saveFrom) out.push(chunk.subarray(saveFrom, start));
        saveFrom = end + 1;
      } else if (row === 'response') {
        this.rows += 1;
        last = { head, start, end };
      }
      start = end + 1;
    }
    if (start > saveFrom) out.push(chunk.subarray(saveFrom, start));
    if (last) this.lastRow = [...last.head, chunk.subarray(last.start, last.end + 1)];
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    return out;
  }

  /** At the stream's proper end: a last row without a line end is a row too. */
  end(): Uint8Array[] {
    const row = this.pending;
    this.pending = [];
    if (row.length === 0) return [];
    const kind = this.kind(row);
    if (kind === 'response') {
      this.rows += 1;
      this.lastRow = row;
    }
    return kind === 'dropped' ? [] : row;
  }

  // A row just ended: the header (saved once), a blank line (dropped), or a response.
  private kind(row: Uint8Array[]): 'header' | 'dropped' | 'response' {
    if (this.expectHeader) {
      this.expectHeader = false;
      if (this.headerSaved) return 'dropped';
      this.headerSaved = true;
      return 'header';
    }
    return isBlank(row) ? 'dropped' : 'response';
  }

  /** The stream broke: the cut row goes, and the next stream starts after the last whole row. */
  restart(): void {
    this.pending = [];
    this.inQuotes = false;
    this.expectHeader = this.format === 'csv';
  }

  /** The token of the last whole response, for `after`; none before the first. */
  get resumeAfter(): string | undefined {
    if (this.lastRow.length === 0) return undefined;
    const text = new TextDecoder().decode(concat(this.lastRow)).replace(/\r?\n$/, '');
    return this.format === 'csv' ? firstCsvCell(text) : jsonToken(text);
  }

  // The index of the LF that ends the next row from `from`, or -1.
  private nextRowEnd(chunk: Uint8Array, from: number): number {
    if (this.format === 'jsonl') return chunk.indexOf(lf, from);
    let at = from;
    // The next LF, searched again only once passed (it was inside quotes):
    // a row of many quoted cells is not read once per cell.
    let lineEnd = -2;
    for (;;) {
      if (this.inQuotes) {
        const closing = chunk.indexOf(quote, at);
        if (closing === -1) return -1;
        this.inQuotes = false;
        at = closing + 1;
        continue;
      }
      const opening = chunk.indexOf(quote, at);
      if (lineEnd !== -1 && lineEnd < at) lineEnd = chunk.indexOf(lf, at);
      if (lineEnd !== -1 && (opening === -1 || lineEnd < opening)) return lineEnd;
      if (opening === -1) return -1;
      this.inQuotes = true;
      at = opening + 1;
    }
  }
}

// Only a line end: a row of anything else is at least 3 bytes long.
function isBlank(parts: Uint8Array[]): boolean {
  if (parts.reduce((sum, part) => sum + part.length, 0) > 2) return false;
  return parts.every((part) => part.every((byte) => byte === lf || byte === 0x0d));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

// The first cell of a CSV row, unquoted: the response token.
function firstCsvCell(row: string): string | undefined {
  const quoted = /^"((?:[^"]|"")*)"/.exec(row);
  const cell = quoted ? quoted[1].replaceAll('""', '"') : row.split(',')[0];
  return cell === '' ? undefined : cell;
}

function jsonToken(line: string): string | undefined {
  try {
    const token = (JSON.parse(line) as { token?: unknown }).token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}
