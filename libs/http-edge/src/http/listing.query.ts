import { z } from 'zod';

// Typeform's paging parameters: page from 1, page_size up to 200 (default 10).
export const pagingQuery = {
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(10),
};
