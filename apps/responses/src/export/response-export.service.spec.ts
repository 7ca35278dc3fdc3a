import { exportPageLimits, type ExportCursor } from '@formline/contracts';
import { inputLimits } from '@formline/input';
import type { RpcClient } from '@formline/messaging';
import type { ResponsesConfig } from '../responses.config';
import type { ExportRow, ResponseExportRepository } from './response-export.repository';
import { ResponseExportService } from './response-export.service';

// A page counts its responses as text and never measures the reply: JSON
// text escapes to at most twice its bytes, so a page of responses made of
// nothing but quotes still fits the reply; and access is asked for again
// only once the cursor's check is a second old.
describe('ResponseExportService.page', () => {
  const query = { sort: { field: 'submitted_at', order: 'asc' } } as const;
  // A completed response whose stored text is mostly quotes (each escapes to two bytes).
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
      payload: `${head}"answers":[${Array.from({ length: 150 }, () => '""').join(',')}]}`,
    };
  };
  const rows = Array.from({ length: 1000 }, (_, i) => row(i));
  let authorized: number;
  const service = () => {
    authorized = 0;
    const rpc = {
      request: () => {
        authorized++;
        return Promise.resolve({ accountId: 'account', region: 'us' });
      },
    } as unknown as RpcClient;
    const repository = {
      page: (_a: string, _f: string, _q: unknown, cursor: ExportCursor | undefined, limit: number) =>
        Promise.resolve(rows.filter((r) => !cursor || r.id > cursor.id).slice(0, limit)),
    } as unknown as ResponseExportRepository;
    return new ResponseExportService(rpc, repository, { REGION: 'us' } as ResponsesConfig);
  };
  const ask = (s: ResponseExportService, cursor?: ExportCursor) =>
    s.page({ accountId: 'account', formId: 'form', query, cursor, maxItems: 1000 });

  it('cuts the page at its bytes of text, and the reply fits whatever it escapes', async () => {
    const page = await ask(service());
    const text = page.lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    expect(page.lines.length).toBeGreaterThan(0);
    expect(page.lines.length).toBeLessThan(rows.length);
    expect(text).toBeLessThanOrEqual(exportPageLimits.bytes);
    const reply = Buffer.byteLength(JSON.stringify({ id: 'x', response: page, isDisposed: true }));
    expect(reply).toBeGreaterThan(text * 1.5);
    expect(2 * exportPageLimits.bytes + 3 * exportPageLimits.items + 4096).toBeLessThan(
      inputLimits.replyBytes,
    );
    // The stored text is handed on as it is; the cursor is exact to the microsecond.
    expect(page.lines[0]).toBe(rows[0].payload);
    expect(page.next).toMatchObject({ owner: 'account', at: expect.stringMatching(/\.456789Z$/) as unknown });
  });

  it('asks for access on the first page and again only once its check is a second old', async () => {
    const s = service();
    const first = await ask(s);
    expect(authorized).toBe(1);
    await ask(s, first.next!);
    expect(authorized).toBe(1);
    await ask(s, { ...first.next!, checkedAt: new Date(Date.now() - 1500).toISOString() });
    expect(authorized).toBe(2);
    await ask(s, { ...first.next!, checkedAt: undefined });
    expect(authorized).toBe(3);
  });
});
