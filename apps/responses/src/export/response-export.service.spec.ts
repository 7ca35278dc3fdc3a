import { exportPageLimits, type ExportCursor } from '@formline/contracts';
import { inputLimits } from '@formline/input';
import type { RpcClient } from '@formline/messaging';
import type { ResponsesConfig } from '@formline/app-config';
import type { ExportRow, ResponseExportRepository } from './response-export.repository';
import { ExportReadAhead } from './response-export.read-ahead';
import { ResponseExportService } from './response-export.service';

// A page is the bytes of its responses' JSON lines, the stored text as it is,
// cut at exportPageLimits.bytes (which leaves room in one NATS message for
// the cursor's header); and access is asked for again only once the
// cursor's check is a second old.
describe('ResponseExportService.page', () => {
  const query = { sort: { field: 'submitted_at', order: 'asc' } } as const;
  // A completed response whose stored text is mostly quotes (each would escape
  // to two bytes in a JSON string; a byte page carries them as they are).
  const row = (i: number): ExportRow => {
    const id = `r${String(i).padStart(5, '0')}`;
    const head =
      `{"landing_id":"${id}","token":"${id}","response_id":"${id}","response_type":"completed",` +
      `"landed_at":"2026-11-27T07:00:00Z","submitted_at":"2026-11-27T07:00:05Z",`;
    return {
      id,
      responseType: 'completed',
      landedAt: '2026-11-27 07:00:00.123',
      submittedAt: '2026-11-27 07:00:05.456789',
      payload: `${head}"answers":[${Array.from({ length: 500 }, () => '""').join(',')}]}`,
    };
  };
  const rows = Array.from({ length: 1000 }, (_, i) => row(i));
  let authorized: number;
  let reads: Array<{ after?: string; limit: number }>;
  const service = () => {
    authorized = 0;
    reads = [];
    const rpc = {
      request: () => {
        authorized++;
        return Promise.resolve({ accountId: 'account', region: 'us' });
      },
    } as unknown as RpcClient;
    const repository = {
      page: (_a: string, _f: string, _q: unknown, cursor: ExportCursor | undefined, limit: number) => {
        reads.push({ after: cursor?.id, limit });
        const page = rows.filter((r) => !cursor || r.id > cursor.id).slice(0, limit);
        return Promise.resolve({ rows: page, read: page.length });
      },
    } as unknown as ResponseExportRepository;
    return new ResponseExportService(rpc, repository, new ExportReadAhead(), {
      REGION: 'us',
    } as ResponsesConfig);
  };
  const ask = (s: ResponseExportService, cursor?: ExportCursor) =>
    s.page({ accountId: 'account', formId: 'form', query, cursor, maxItems: 1000 });
  const textOf = (reply: { body: Uint8Array }) => Buffer.from(reply.body).toString();
  // A service whose repository answers every page with `page`.
  const serviceAnswering = (page: { rows: ExportRow[]; read: number }) =>
    new ResponseExportService(
      { request: () => Promise.resolve({ accountId: 'account', region: 'us' }) } as unknown as RpcClient,
      { page: () => Promise.resolve(page) } as unknown as ResponseExportRepository,
      new ExportReadAhead(),
      { REGION: 'us' } as ResponsesConfig,
    );

  it('cuts the page at its bytes, each line the stored text, and the message fits NATS', async () => {
    const page = await ask(service());
    const text = textOf(page);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(page.meta.rows).toBe(lines.length);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThan(rows.length);
    // The page's bytes are its lines exactly: the stored texts, each ended by a line break.
    expect(lines).toEqual(rows.slice(0, lines.length).map((row) => row.payload));
    expect(page.body.length).toBeLessThanOrEqual(exportPageLimits.bytes);
    expect(page.body.length + Buffer.byteLength(rows[0].payload) + 1).toBeGreaterThan(exportPageLimits.bytes);
    // A full page and its header (the cursor) stay under NATS' 1 MB with room to spare.
    const header = Buffer.byteLength(`Formline-Meta: ${JSON.stringify(page.meta)}\r\n`);
    expect(exportPageLimits.bytes + header).toBeLessThan(inputLimits.replyBytes + 4096);
    expect(inputLimits.replyBytes + 4096).toBeLessThan(1024 * 1024);
    // The cursor is exact to the microsecond.
    expect(page.meta.next).toMatchObject({
      owner: 'account',
      id: rows[lines.length - 1].id,
      at: expect.stringMatching(/\.456789Z$/) as unknown,
    });
  });

  it('sends a response larger than the page alone, and ends with a null cursor', async () => {
    const s = service();
    const huge = {
      ...row(0),
      payload: row(0).payload.replace('"answers":[', `"answers":["${'x'.repeat(exportPageLimits.bytes)}",`),
    };
    rows.splice(0, 1, huge);
    try {
      const page = await ask(s);
      expect(page.meta.rows).toBe(1);
      expect(textOf(page)).toBe(`${huge.payload}\n`);
    } finally {
      rows.splice(0, 1, row(0));
    }
    const last = await ask(s, { at: '2026-11-27T07:00:05.456789Z', id: rows[998].id, owner: 'account' });
    expect(textOf(last)).toBe(`${rows[999].payload}\n`);
    expect(last.meta.next).toBeNull();
  });

  it('goes on after a page PostgreSQL cut at its bytes, even when every row it sent fits', async () => {
    // The database measures the stored text; the page's lines may be
    // shorter (a fields filter): two rows sent of the five read is a page
    // cut short, not the export's end.
    const s = serviceAnswering({ rows: rows.slice(0, 2), read: 5 });
    const page = await s.page({ accountId: 'account', formId: 'form', query, maxItems: 1000 });
    expect(page.meta.rows).toBe(2);
    expect(page.meta.next).toMatchObject({ id: rows[1].id });
  });

  it('hands on the stored text only when it begins as the listing writes the row', async () => {
    const stored = (landedAt: string) =>
      `{"landing_id":"r1","token":"r1","response_id":"r1","response_type":"completed","landed_at":"${landedAt}",` +
      `"submitted_at":"2026-11-27T07:00:05Z","answers":[]}`;
    const pageOf = async (row: ExportRow) => {
      const s = serviceAnswering({ rows: [row], read: 1 });
      return textOf(await s.page({ accountId: 'account', formId: 'form', query, maxItems: 1000 }));
    };
    const base = {
      id: 'r1',
      responseType: 'completed',
      landedAt: '2026-11-27 07:00:00.123',
      submittedAt: '2026-11-27 07:00:05.456789',
    };
    const asListed = stored('2026-11-27T07:00:00Z');
    expect(await pageOf({ ...base, payload: asListed })).toBe(`${asListed}\n`);
    // Stored otherwise (another second, a fraction, not completed): rebuilt from the columns.
    for (const row of [
      { ...base, payload: stored('2026-11-27T07:00:01Z') },
      { ...base, payload: stored('2026-11-27T07:00:00.123Z') },
      { ...base, landedAt: '2026-11-27 07:00:00', payload: stored('2026-11-27 07:00:00Z') },
    ]) {
      expect(await pageOf(row)).toBe(`${asListed}\n`);
    }
    const partial = { ...base, responseType: 'partial', payload: asListed.replace('completed', 'partial') };
    expect(JSON.parse(await pageOf(partial))).toMatchObject({
      response_type: 'partial',
      submitted_at: '0001-01-01T00:00:00Z',
    });
  });

  it('reads the next page while this one travels, and answers the next ask with those rows', async () => {
    const s = service();
    const first = await ask(s);
    // Read ahead: the rows after the page's last, about as many as fitted.
    expect(reads).toEqual([
      { after: undefined, limit: 1000 },
      { after: first.meta.next!.id, limit: Math.ceil(first.meta.rows * 1.1) + 1 },
    ]);
    // The next ask reads nothing more: its rows were read; they are the
    // export's last (nothing read ahead after them).
    const second = await ask(s, first.meta.next!);
    expect(reads).toHaveLength(2);
    expect(second.meta.next).toBeNull();
    expect(textOf(second)).toBe(
      rows
        .slice(first.meta.rows)
        .map((row) => `${row.payload}\n`)
        .join(''),
    );
    // Asked again from the same place (a retry): read anew.
    expect(textOf(await ask(s, first.meta.next!))).toBe(textOf(second));
    expect(reads).toHaveLength(3);
    expect(reads[2].after).toBe(first.meta.next!.id);
  });

  it('asks for access on the first page and again only once its check is a second old', async () => {
    const s = service();
    const first = await ask(s);
    expect(authorized).toBe(1);
    await ask(s, first.meta.next!);
    expect(authorized).toBe(1);
    await ask(s, { ...first.meta.next!, checkedAt: new Date(Date.now() - 1500).toISOString() });
    expect(authorized).toBe(2);
    await ask(s, { ...first.meta.next!, checkedAt: undefined });
    expect(authorized).toBe(3);
  });
});
