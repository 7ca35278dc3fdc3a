import { responseSortFields, responseTypes, type ResponseQuery } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { endOfSecond, pointInTime } from './point-in-time';

const csv = boundedText(inputLimits.queryValue).transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

const sortPattern = new RegExp(`^(${responseSortFields.join('|')}),(asc|desc)$`);

// The Responses API's filters and sort, as Typeform names them: the listing
// takes them, and so does the export (which has no pages of its own).
export const responseFilterParams = {
  since: pointInTime.optional(),
  until: pointInTime.optional(),
  included_response_ids: csv.optional(),
  excluded_response_ids: csv.optional(),
  response_type: csv.pipe(z.array(z.enum(responseTypes))).optional(),
  completed: z.enum(['true', 'false']).optional(),
  sort: boundedText(inputLimits.name)
    .regex(sortPattern, `field,order with field ${responseSortFields.join(' or ')}`)
    .optional(),
  query: boundedText(inputLimits.text).min(1).optional(),
  fields: csv.optional(),
  answered_fields: csv.optional(),
};

// The Responses API's query parameters, as Typeform names them.
export const responseListQuery = z
  .object({
    page_size: z.coerce.number().int().min(1).max(1000).default(25),
    after: boundedText(inputLimits.id).min(1).optional(),
    before: boundedText(inputLimits.id).min(1).optional(),
    ...responseFilterParams,
  })
  .refine((q) => !(q.after && q.before), { error: 'use after or before, not both', path: ['before'] })
  // Typeform: after/before page in the order responses were processed, so
  // they "could not be used together with sort".
  .refine((q) => !(q.sort && (q.after || q.before)), {
    error: 'sort cannot be used together with after or before (they page in submission order)',
    path: ['sort'],
  });

export function toResponseQuery(q: z.output<typeof responseListQuery>): ResponseQuery {
  const [field, order] = (q.sort ?? 'submitted_at,desc').split(',') as [
    ResponseQuery['sort']['field'],
    ResponseQuery['sort']['order'],
  ];
  // `completed` is the older spelling of response_type; without either,
  // Typeform lists completed responses only.
  const unfinished: ResponseQuery['responseTypes'] = ['partial', 'started'];
  const types = q.response_type ?? (q.completed === 'false' ? unfinished : undefined) ?? ['completed'];
  return {
    pageSize: q.page_size,
    since: q.since?.toISOString(),
    // `until` includes its whole second.
    until: q.until && endOfSecond(q.until).toISOString(),
    after: q.after,
    before: q.before,
    includedResponseIds: q.included_response_ids,
    excludedResponseIds: q.excluded_response_ids,
    responseTypes: types,
    sort: { field, order },
    query: q.query,
    fields: q.fields,
    answeredFields: q.answered_fields,
  };
}

// DELETE names its responses in the query (comma-separated), or in a JSON
// body `{"included_response_ids": [...]}`, as Typeform takes them.
export const responseDeleteQuery = z.object({
  included_response_ids: csv.optional(),
  included_tokens: csv.optional(),
});
export const responseDeleteBody = z.strictObject({
  included_response_ids: z.array(boundedText(inputLimits.id).min(1)).max(1000),
});

export function responseIdsToDelete(
  query: z.output<typeof responseDeleteQuery>,
  body: z.output<typeof responseDeleteBody> | undefined,
): string[] {
  const ids = [
    ...(query.included_response_ids ?? []),
    ...(query.included_tokens ?? []),
    ...(body?.included_response_ids ?? []),
  ];
  if (ids.length === 0 || ids.length > 1000) {
    throw new DomainError(ErrorCode.ValidationError, 'Invalid request.', [
      {
        code: 'INVALID_VALUE',
        description:
          'name 1 to 1000 responses in included_response_ids (query or JSON body) or included_tokens',
        field: 'included_response_ids',
        in: 'query',
      },
    ]);
  }
  return ids;
}
