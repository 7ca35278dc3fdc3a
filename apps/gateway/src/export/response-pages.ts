import {
  exportPageLimits,
  exportResponsesPage,
  type ResponseExportQuery,
  type RpcReply,
} from '@formline/contracts';
import type { RpcClient } from '@formline/messaging';

export type ExportPage = RpcReply<typeof exportResponsesPage>;

export interface ExportRequest {
  accountId: string;
  formId: string;
  query: ResponseExportQuery;
}

// The first page, asked before anything is answered: access, the region and
// a bad `after` are refused with their status while one still can be sent.
export function firstExportPage(
  rpc: RpcClient,
  request: ExportRequest,
  requestId: string,
): Promise<ExportPage> {
  return rpc.request(exportResponsesPage, { ...request, maxItems: exportPageLimits.items }, requestId);
}

// Every page of an export in order (each response's JSON), from the first.
// The next page is asked for as soon as one arrives, so the service reads
// while the client receives; at most that one page waits ahead, whatever the
// export's size. The caller pulls: a consumer that stops (a client gone)
// stops the asking.
export async function* exportPages(
  rpc: RpcClient,
  request: ExportRequest,
  requestId: string,
  first: ExportPage,
): AsyncGenerator<string[]> {
  let page = first;
  let asked: number = exportPageLimits.items;
  for (;;) {
    const cursor = page.next;
    asked = rowsToAsk(asked, page);
    const ahead = cursor
      ? rpc.request(exportResponsesPage, { ...request, cursor, maxItems: asked }, requestId)
      : undefined;
    // Handled: if the consumer stops before reading it, its failure matters to no one.
    ahead?.catch(() => undefined);
    if (page.lines.length > 0) yield page.lines;
    if (!ahead) return;
    page = await ahead;
  }
}

// A page cut short by its byte budget read rows it could not send: the next
// asks for about as many as fitted, so the service reads little in vain; a
// page that came whole asks for twice as many, up to the limit.
export function rowsToAsk(asked: number, page: ExportPage): number {
  const fitted = page.lines.length;
  const next = fitted < asked && page.next ? Math.ceil(fitted * 1.1) + 1 : asked * 2;
  return Math.max(1, Math.min(exportPageLimits.items, next));
}
