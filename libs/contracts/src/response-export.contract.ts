import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { responseQuerySchema } from './responses.contract';
import { Subjects } from './subjects';

// An export is never one reply: the gateway pulls it page by page, each page
// bounded in rows and in bytes well under NATS' 1 MB, and writes each to the
// HTTP answer before it asks for the next.
export const exportPageLimits = {
  /** Rows a page holds at most. */
  items: 1000,
  /** Bytes a page's responses take at most in the reply (always at least one response). */
  bytes: 512 * 1024,
} as const;

// Where the next page starts: the last row's value on the sorted column and
// its id (the tie-breaker), so a page costs one index range scan, never an
// OFFSET nor a lookup of the previous token; and the form's owning account,
// so the page is read while access is checked again (and thrown away if the
// check answers otherwise). Cursors travel between the gateway and the
// service only, never to a client.
export const exportCursorSchema = z.object({
  at: z.iso.datetime(),
  id: z.string().min(1).max(64),
  owner: z.string().min(1).max(64),
});
export type ExportCursor = z.output<typeof exportCursorSchema>;

// The listing's filters and sort; `after` names the response to resume after
// (its position on the sorted column), for the first page only.
export const responseExportQuerySchema = responseQuerySchema.omit({ pageSize: true, before: true });
export type ResponseExportQuery = z.output<typeof responseExportQuerySchema>;

export const exportResponsesPage = defineRpc({
  subject: Subjects.responsesResponseExportPage,
  request: z.object({
    accountId: z.string().min(1),
    formId: z.string().min(1),
    query: responseExportQuerySchema,
    cursor: exportCursorSchema.optional(),
    maxItems: z.int().min(1).max(exportPageLimits.items),
  }),
  // Each response's JSON as the listing shows it (the service hands on the
  // stored text when it is that already, and no one parses it on the way to
  // a JSON lines export); `next`: null once the last matching response was sent.
  reply: z.object({ lines: z.array(z.string()), next: exportCursorSchema.nullable() }),
});
