import { responseSortFields, responseTypes, type ResponseQuery } from '@formline/contracts';
import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';

const csv = boundedText(inputLimits.queryValue).transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

// ISO 8601 date-time, or Unix seconds, as Typeform's since/until take them.
const pointInTime = boundedText(inputLimits.name).transform((value, ctx) => {
  const date = /^\d+$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'an ISO 8601 date-time or Unix seconds' });
    return z.NEVER;
  }
  return date.toISOString();
});

const sortPattern = new RegExp(`^(${responseSortFields.join('|')}),(asc|desc)$`);

// The Responses API's query parameters, as Typeform names them.
export const responseListQuery = z
  .object({
    page_size: z.coerce.number().int().min(1).max(1000).default(25),
    since: pointInTime.optional(),
    until: pointInTime.optional(),
    after: boundedText(inputLimits.id).min(1).optional(),
    before: boundedText(inputLimits.id).min(1).optional(),
    included_response_ids: csv.optional(),
    excluded_response_ids: csv.optional(),
    response_type: csv.pipe(z.array(z.enum(responseTypes))).optional(),
    completed: z.enum(['true', 'false']).optional(),
    sort: boundedText(inputLimits.name)
      .regex(sortPattern, `field,order with field ${responseSortFields.join(' or ')}`)
      .default('submitted_at,desc'),
    query: boundedText(inputLimits.text).min(1).optional(),
    fields: csv.optional(),
  })
  .refine((q) => !(q.after && q.before), { error: 'use after or before, not both', path: ['before'] });

export function toResponseQuery(q: z.output<typeof responseListQuery>): ResponseQuery {
  const [field, order] = q.sort.split(',') as [
    ResponseQuery['sort']['field'],
    ResponseQuery['sort']['order'],
  ];
  // `completed` is the older spelling of response_type; without either,
  // Typeform lists completed responses only.
  const unfinished: ResponseQuery['responseTypes'] = ['partial', 'started'];
  const types = q.response_type ?? (q.completed === 'false' ? unfinished : undefined) ?? ['completed'];
  return {
    pageSize: q.page_size,
    since: q.since,
    until: q.until,
    after: q.after,
    before: q.before,
    includedResponseIds: q.included_response_ids,
    excludedResponseIds: q.excluded_response_ids,
    responseTypes: types,
    sort: { field, order },
    query: q.query,
    fields: q.fields,
  };
}

export const responseDeleteQuery = z
  .object({ included_response_ids: csv.optional(), included_tokens: csv.optional() })
  .transform((q) => [...(q.included_response_ids ?? []), ...(q.included_tokens ?? [])])
  .refine((ids) => ids.length > 0 && ids.length <= 1000, {
    error: 'name 1 to 1000 responses in included_response_ids (or included_tokens)',
  });
