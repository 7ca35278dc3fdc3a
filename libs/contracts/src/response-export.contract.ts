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
  /**
   * Bytes of a page's responses as JSON text at most (always at least one
   * response). Escaped as strings in the reply they take at most twice as
   * many, plus three a line: JSON text holds no character whose escape is
   * longer than two (a quote, a backslash; a tab or line break between
   * tokens), so twice this, a thousand lines and the envelope stay well
   * under the 900 KB a reply may take. Kept small enough that a page's text
   * in the gateway (the reply, the lines joined) stays under V8's large-object
   * size (128 KB): larger strings go where only a full collection frees them,
   * and a long export's pages piled up there by the hundred megabytes.
   */
  bytes: 100 * 1024,
  /** How long an export goes on after access was last checked before it is checked again. */
  accessRecheckMs: 1000,
} as const;

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
