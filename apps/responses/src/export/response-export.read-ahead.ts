import { Injectable } from '@nestjs/common';
import type { ExportCursor, ResponseExportQuery } from '@formline/contracts';
import type { ExportRow } from './response-export.repository';

/** At most this many pages read ahead at once, the oldest let go first. */
const readAheadPages = 8;
/** A page read ahead and not asked for within this time is let go. */
const readAheadKeepMs = 5000;

/** A page of an export as the service sends it, but for its cursor. */
export interface BuiltPage {
  /** Lines in the body. */
  rows: number;
  /** The lines, each ended by `\n`. */
  body: Buffer;
  /** The last row sent, when more may follow it. */
  last?: Pick<ExportRow, 'id' | 'landedAt' | 'submittedAt'>;
}

export interface PageReadAhead {
  page: Promise<BuiltPage>;
  /** The rows it asked PostgreSQL for. */
  limit: number;
}

// An export's next page, read from PostgreSQL and written while the page
// before travels to the gateway: the gateway asks for it as soon as that one
// arrives, and finds it ready, or being made. Kept by the page's exact
// position (form, owner, filters, cursor), at most readAheadPages at once,
// each for readAheadKeepMs: the service holds at most that many pages (as
// bytes) besides those of the requests in work. A page asked for from
// another replica, or never (the client went), was read in vain and is let go.
@Injectable()
export class ExportReadAhead {
  private readonly reads = new Map<string, PageReadAhead & { timer: NodeJS.Timeout }>();

  start(key: string, limit: number, read: () => Promise<BuiltPage>): void {
    this.drop(key);
    const oldest = this.reads.keys().next();
    if (this.reads.size >= readAheadPages && !oldest.done) this.drop(oldest.value);
    const page = read();
    // Whoever takes it hears of its failure; one never taken fails unheard.
    page.catch(() => undefined);
    const timer = setTimeout(() => this.drop(key), readAheadKeepMs);
    timer.unref();
    this.reads.set(key, { page, limit, timer });
  }

  take(key: string): PageReadAhead | undefined {
    const found = this.reads.get(key);
    if (found) this.drop(key);
    return found;
  }

  private drop(key: string): void {
    const found = this.reads.get(key);
    if (!found) return;
    clearTimeout(found.timer);
    this.reads.delete(key);
  }
}

export function readAheadKey(
  formId: string,
  query: ResponseExportQuery,
  cursor: Pick<ExportCursor, 'owner' | 'at' | 'id'>,
): string {
  return JSON.stringify([formId, cursor.owner, cursor.at, cursor.id, query]);
}
