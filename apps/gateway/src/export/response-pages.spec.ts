import type { RpcClient } from '@formline/messaging';
import { type ExportPage, exportPages } from './response-pages';

// A service answering numbered pages, counting what it was asked.
function pagedService(pages: number) {
  const asked: number[] = [];
  const rpc = {
    request: (_contract: unknown, payload: { cursor?: { id: string } }) => {
      const n = Number(payload.cursor?.id ?? 0) + 1;
      asked.push(n);
      return Promise.resolve(page(n, pages));
    },
  } as unknown as RpcClient;
  return { rpc, asked };
}

function page(n: number, pages: number): ExportPage {
  return {
    items: [{ token: `t${n}`, response_id: `t${n}`, landed_at: '', submitted_at: '' }],
    next: n < pages ? { at: '2026-11-27T07:00:00.000Z', id: String(n) } : null,
  };
}

const request = {
  accountId: 'a',
  formId: 'f',
  query: { sort: { field: 'submitted_at', order: 'asc' } },
} as const;

describe('exportPages', () => {
  it('yields every page in order, asking for each once', async () => {
    const { rpc, asked } = pagedService(5);
    const tokens: string[] = [];
    for await (const items of exportPages(rpc, request, 'r', page(0, 5)))
      tokens.push(...items.map((i) => i.token));
    expect(tokens).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect(asked).toEqual([1, 2, 3, 4, 5]);
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
