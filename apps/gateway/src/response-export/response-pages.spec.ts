import type { RpcClient } from '@formline/messaging';
import { type ExportPage, exportPages, linesOf, rowsToAsk } from './response-pages';

// A service answering numbered pages, counting what it was asked.
function pagedService(pages: number) {
  const asked: number[] = [];
  const rpc = {
    requestBytes: (_contract: unknown, payload: { cursor?: { id: string } }) => {
      const n = Number(payload.cursor?.id ?? 0) + 1;
      asked.push(n);
      return Promise.resolve(page(n, pages));
    },
  } as unknown as RpcClient;
  return { rpc, asked };
}

function page(n: number, pages: number): ExportPage {
  return {
    meta: {
      rows: 1,
      next: n < pages ? { at: '2026-11-27T07:00:00.000Z', id: String(n), owner: 'a' } : null,
    },
    body: new TextEncoder().encode(`{"token":"t${n}"}\n`),
  };
}

const request = {
  accountId: 'a',
  formId: 'f',
  query: { sort: { field: 'submitted_at', order: 'asc' } },
} as const;

describe('exportPages', () => {
  it('yields every page in order, its bytes as they came, asking for each once', async () => {
    const { rpc, asked } = pagedService(5);
    const chunks: Buffer[] = [];
    for await (const got of exportPages(rpc, request, 'r', page(0, 5))) chunks.push(got);
    expect(Buffer.concat(chunks).toString()).toBe(
      [0, 1, 2, 3, 4, 5].map((n) => `{"token":"t${n}"}\n`).join(''),
    );
    expect(asked).toEqual([1, 2, 3, 4, 5]);
  });

  it('hands on the reply bytes without copying them', async () => {
    const first = page(0, 0);
    const { rpc } = pagedService(0);
    const chunks: Buffer[] = [];
    for await (const got of exportPages(rpc, request, 'r', first)) chunks.push(got);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].buffer).toBe(first.body.buffer);
  });

  it('asks at most one page ahead of its consumer, and nothing once the consumer stops', async () => {
    const { rpc, asked } = pagedService(100);
    const pages = exportPages(rpc, request, 'r', page(0, 100));
    await pages.next();
    await pages.next();
    expect(asked).toEqual([1, 2]);
    await pages.return(undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toEqual([1, 2]);
  });
});

describe('linesOf', () => {
  it('decodes each line of a page on its own, UTF-8 split nowhere', () => {
    const lines = ['{"text":"é ü ✓"}', '{"text":"a\\nb"}', '{}'];
    expect([...linesOf(Buffer.from(`${lines.join('\n')}\n`))]).toEqual(lines);
    expect([...linesOf(Buffer.alloc(0))]).toEqual([]);
  });
});

describe('rowsToAsk', () => {
  const cursor = { at: '2026-11-27T07:00:00.000Z', id: 'x', owner: 'a' };
  const fitted = (rows: number, next: typeof cursor | null = cursor) => ({ meta: { rows, next } });

  it('asks for about as many rows as fitted the byte budget last time', () => {
    expect(rowsToAsk(1000, fitted(340))).toBe(376);
    expect(rowsToAsk(375, fitted(1))).toBe(3);
  });

  it('asks for more after a page that came whole, up to the limit', () => {
    expect(rowsToAsk(375, fitted(375))).toBe(750);
    expect(rowsToAsk(750, fitted(750))).toBe(1000);
    expect(rowsToAsk(1000, fitted(10, null))).toBe(1000);
  });
});
