import { z } from 'zod';

// Typeform's page-numbered listing: `{total_items, page_count, items}`.
export const pageRequestSchema = z.object({
  page: z.int().min(1),
  pageSize: z.int().min(1),
});

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ total_items: z.int(), page_count: z.int(), items: z.array(item) });

export type Page<T> = { total_items: number; page_count: number; items: T[] };
