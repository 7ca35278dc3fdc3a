import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { responseQuerySchema, responseResourceSchema } from './responses.contract';
import { Subjects } from './subjects';

// An export is never one reply: the gateway pulls it page by page, each page
// bounded in rows and in bytes well under NATS' 1 MB, and writes each to the
// HTTP answer before it asks for the next.
export const exportPageLimits = {
  /** Rows a page holds at most. */
  items: 1000,
  /** Bytes of JSON a page's responses take at most (always at least one response). */
  bytes: 512 * 1024,
} as const;

// Where the next page starts: the last row's value on the sorted column and
// its id (the tie-breaker), so a page costs one index range scan, never an
// OFFSET nor a lookup of the previous token.
export const exportCursorSchema = z.object({ at: z.iso.datetime(), id: z.string().min(1).max(64) });
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
  // `next`: null once the last matching response was sent.
  reply: z.object({ items: z.array(responseResourceSchema), next: exportCursorSchema.nullable() }),
});
