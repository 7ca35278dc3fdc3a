import { z } from 'zod';
import { inputLimits } from '@formline/input';
import { defineByteRpc } from './rpc-contract';
import { responseQuerySchema } from './responses.contract';
import { Subjects } from './subjects';

// An export is never one reply: the gateway pulls it page by page, each page
// bounded in rows and in bytes under NATS' 1 MB, and writes each to the
// HTTP answer before it asks for the next.
export const exportPageLimits = {
  /** Rows a page holds at most. */
  items: 1000,
  /**
   * Bytes of a page's JSON lines at most (always at least one response): the
   * largest reply a service sends. The page travels as those bytes (a byte
   * reply), its cursor in a header of under a kilobyte, so the message stays
   * under NATS' 1 MB whatever the responses hold. In the gateway a page is a
   * Buffer, outside V8's heap, written to the socket as it came: no string
   * of its size is ever made there.
   */
  bytes: inputLimits.replyBytes,
  /** How long an export goes on after access was last checked before it is checked again. */
  accessRecheckMs: 1000,
} as const;

// How many rows the next page asks for: a page cut short by its byte budget
// read rows it could not send, so the next asks for about as many as fitted
// and the service reads little in vain; a page that came whole asks for
// twice as many, up to the limit. The gateway asks by it, and the service
// reads the next page ahead by it.
export function exportRowsToAsk(asked: number, fitted: number, more: boolean): number {
  const next = fitted < asked && more ? Math.ceil(fitted * 1.1) + 1 : asked * 2;
  return Math.max(1, Math.min(exportPageLimits.items, next));
}

// Where the next page starts: the last row's value on the sorted column and
// its id (the tie-breaker), so a page costs one index range scan, never an
// OFFSET nor a lookup of the previous token; and the form's owning account,
// so the page is read while access is checked again (and thrown away if the
// check answers otherwise); and when access was last checked (it is checked
// again once exportPageLimits.accessRecheckMs have passed; a cursor without
// it is checked at once). Cursors travel between the gateway and the
// service only, never to a client.
export const exportCursorSchema = z.object({
  at: z.iso.datetime(),
  id: z.string().min(1).max(64),
  owner: z.string().min(1).max(64),
  checkedAt: z.iso.datetime().optional(),
});
export type ExportCursor = z.output<typeof exportCursorSchema>;

// The listing's filters and sort; `after` names the response to resume after
// (its position on the sorted column), for the first page only.
export const responseExportQuerySchema = responseQuerySchema.omit({ pageSize: true, before: true });
export type ResponseExportQuery = z.output<typeof responseExportQuerySchema>;

export const exportResponsesPage = defineByteRpc({
  subject: Subjects.responsesResponseExportPage,
  request: z.object({
    accountId: z.string().min(1),
    formId: z.string().min(1),
    query: responseExportQuerySchema,
    cursor: exportCursorSchema.optional(),
    maxItems: z.int().min(1).max(exportPageLimits.items),
  }),
  // The body: one response a line as the listing shows it (UTF-8, each line
  // ended by `\n`), the stored text itself when it is that already, so a JSON
  // lines export is these bytes end to end. `rows`: how many lines; `next`:
  // null once the last matching response was sent.
  meta: z.object({ rows: z.int().min(0), next: exportCursorSchema.nullable() }),
});
