import {
  type ByteRpcReply,
  exportPageLimits,
  exportResponsesPage,
  exportRowsToAsk,
  type ResponseExportQuery,
} from '@formline/contracts';
import type { RpcClient } from '@formline/messaging';

// A page as it came: its JSON lines as bytes (`body`), how many (`meta.rows`)
// and where the next starts (`meta.next`).
export type ExportPage = ByteRpcReply<typeof exportResponsesPage>;

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
  return rpc.requestBytes(exportResponsesPage, { ...request, maxItems: exportPageLimits.items }, requestId);
}

// Every page of an export in order, from the first, as the bytes of its JSON
// lines. The next page is asked for as soon as one arrives, so the service
// reads while the client receives; at most that one page waits ahead,
// whatever the export's size. The caller pulls: a consumer that stops (a
// client gone) stops the asking.
export async function* exportPages(
  rpc: RpcClient,
  request: ExportRequest,
  requestId: string,
  first: ExportPage,
): AsyncGenerator<Buffer> {
  let page = first;
  let asked: number = exportPageLimits.items;
  for (;;) {
    const cursor = page.meta.next;
    asked = rowsToAsk(asked, page);
    const ahead = cursor
      ? rpc.requestBytes(exportResponsesPage, { ...request, cursor, maxItems: asked }, requestId)
      : undefined;
    // Handled: if the consumer stops before reading it, its failure matters to no one.
    ahead?.catch(() => undefined);
    if (page.body.byteLength > 0)
      yield Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength);
    if (!ahead) return;
    page = await ahead;
  }
}

// About as many rows as fitted the last page (exportRowsToAsk).
export function rowsToAsk(asked: number, page: Pick<ExportPage, 'meta'>): number {
  return exportRowsToAsk(asked, page.meta.rows, page.meta.next !== null);
}

// A page's lines, one string each, for the formats that read each response
// (CSV, the files archive): decoded one at a time, so that no string of the
// page's size is made.
export function* linesOf(page: Buffer): Generator<string> {
  for (let start = 0; start < page.length;) {
    const end = page.indexOf(0x0a, start);
    const stop = end === -1 ? page.length : end;
    if (stop > start) yield page.toString('utf8', start, stop);
    start = stop + 1;
  }
}
