import type { ResponseExportQuery } from '@formline/contracts';
import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { responseFilterParams, toResponseQuery } from '../responses/response-list.query';

export const exportFormats = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof exportFormats)[number];

// The listing's filters and sort; no pages (`page_size`, `before`): an export
// is every match. `after` resumes after the response an earlier export ended
// with, in the export's order, which is `submitted_at,asc` unless `sort` says
// otherwise: oldest first, so a resumed export also takes what came since.
export const responseExportQuery = z.object({
  format: z.enum(exportFormats).default('jsonl'),
  after: boundedText(inputLimits.id).min(1).optional(),
  ...responseFilterParams,
});

// The files archive takes the same filters; its entries follow the export's order.
export const responseFilesQuery = z.object({
  after: boundedText(inputLimits.id).min(1).optional(),
  ...responseFilterParams,
});

export function toResponseExportQuery(
  q: Omit<z.output<typeof responseExportQuery>, 'format'>,
): ResponseExportQuery {
  const {
    pageSize: _pageSize,
    before: _before,
    ...query
  } = toResponseQuery({
    ...q,
    sort: q.sort ?? 'submitted_at,asc',
    page_size: 1,
  });
  return query;
}
