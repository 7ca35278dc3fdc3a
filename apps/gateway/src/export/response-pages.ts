import {
  exportPageLimits,
  exportResponsesPage,
  type ResponseExportQuery,
  type ResponseResource,
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

// Every page of an export in order, from the first. The next page is asked
// for as soon as one arrives, so the service reads while the client
// receives; at most that one page waits ahead, whatever the export's size.
// The caller pulls: a consumer that stops (a client gone) stops the asking.
export async function* exportPages(
  rpc: RpcClient,
  request: ExportRequest,
  requestId: string,
  first: ExportPage,
): AsyncGenerator<ResponseResource[]> {
  let page = first;
  for (;;) {
    const cursor = page.next;
    const ahead = cursor
      ? rpc.request(exportResponsesPage, { ...request, cursor, maxItems: exportPageLimits.items }, requestId)
      : undefined;
    // Handled: if the consumer stops before reading it, its failure matters to no one.
    ahead?.catch(() => undefined);
    if (page.items.length > 0) yield page.items;
    if (!ahead) return;
    page = await ahead;
  }
}
