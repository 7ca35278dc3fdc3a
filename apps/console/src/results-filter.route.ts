import type { Query } from './api.client';
import { type ConsoleTexts, englishTexts } from './console.texts';
import { type DeliveryPage, deliveryPaging, type DeliveryPaging } from './delivery-pages.route';

// The Results screen's filters, its page and the response opened, in the
// address's fragment (`#/forms/{form_id}/results?query=…&since=…`), so a
// reload, a bookmark and Back keep them; and the same filters as the
// Responses API's query, for the listing and for the export.

/** Which responses: completed (the API's default), unfinished (partial or started), or all. */
export const responseStates = ['completed', 'partial', 'all'] as const;
export type ResponseState = (typeof responseStates)[number];

export interface ResultsFilters {
  /** Search text, the API's `query`. */
  query?: string;
  /** Days (`YYYY-MM-DD`) in the browser's time, both included. */
  since?: string;
  until?: string;
  state: ResponseState;
  /** A question's id: only responses that answered it (`answered_fields`). */
  answered?: string;
}

export interface ResultsView {
  filters: ResultsFilters;
  /** The page, by the API's cursor (a response token). */
  page: DeliveryPage;
  /** The token of the response opened whole. */
  open?: string;
}

const day = /^\d{4}-\d{2}-\d{2}$/;
const maxQuery = 200;
const maxId = 64;

export function resultsViewFromQuery(params: URLSearchParams): ResultsView {
  const bounded = (name: string, length: number) => {
    const value = params.get(name)?.trim();
    return value && value.length <= length ? value : undefined;
  };
  const dayOf = (name: string) => {
    const value = params.get(name);
    return value && day.test(value) && isDay(value) ? value : undefined;
  };
  const state = params.get('state');
  const filters: ResultsFilters = {
    query: bounded('query', maxQuery),
    since: dayOf('since'),
    until: dayOf('until'),
    state: responseStates.includes(state as ResponseState) ? (state as ResponseState) : 'completed',
    answered: bounded('answered', maxId),
  };
  const before = bounded('before', maxId);
  const after = bounded('after', maxId);
  // One cursor at a time, as the API takes them.
  const page: DeliveryPage = before ? { before } : after ? { after } : {};
  return { filters: withoutEmpty(filters), page, open: bounded('open', maxId) };
}

/** The fragment's query for a view; empty when it shows the newest completed responses. */
export function queryOfResultsView(view: ResultsView): string {
  const params = new URLSearchParams();
  const { query, since, until, state, answered } = view.filters;
  if (query) params.set('query', query);
  if (since) params.set('since', since);
  if (until) params.set('until', until);
  if (state !== 'completed') params.set('state', state);
  if (answered) params.set('answered', answered);
  if (view.page.before) params.set('before', view.page.before);
  else if (view.page.after) params.set('after', view.page.after);
  if (view.open) params.set('open', view.open);
  return params.toString();
}

/** What a person typed into the filters, checked: the filters, or what is wrong. */
export function checkedFilters(
  filters: ResultsFilters,
  { t }: ConsoleTexts = englishTexts,
): { ok: true; filters: ResultsFilters } | { ok: false; message: string } {
  const clean = withoutEmpty({ ...filters, query: filters.query?.trim() });
  if (clean.query && clean.query.length > maxQuery)
    return { ok: false, message: t('filters.longQuery', { max: maxQuery }) };
  for (const name of ['since', 'until'] as const) {
    const value = clean[name];
    if (value && !(day.test(value) && isDay(value)))
      return { ok: false, message: t(name === 'since' ? 'filters.badSince' : 'filters.badUntil') };
  }
  if (clean.since && clean.until && clean.until < clean.since) {
    return { ok: false, message: t('filters.backwards') };
  }
  return { ok: true, filters: clean };
}

/**
 * The filters as the Responses API's query (the listing's and the export's
 * alike): the days from the first one's start to the last one's end in the
 * browser's time, sent in UTC, as the API reads a time without a zone as UTC.
 */
export function apiFilters(filters: ResultsFilters): Query {
  const types = { completed: 'completed', partial: 'partial,started', all: 'completed,partial,started' };
  return {
    response_type: types[filters.state],
    query: filters.query,
    since: filters.since ? localDay(filters.since, 0, 0, 0).toISOString() : undefined,
    until: filters.until ? localDay(filters.until, 23, 59, 59).toISOString() : undefined,
    answered_fields: filters.answered,
  };
}

/**
 * The paging buttons of a page of `tokens` (newest first), as the delivery
 * log's: Older by the last token, Newer by the first. The responses API may
 * cut a page short when its answers would not fit one reply, and counts the
 * matches (bounded) of the first page, so the first page also offers Older
 * when more match than it shows.
 */
export function resultsPaging(
  page: DeliveryPage,
  tokens: readonly string[],
  pageSize: number,
  totalItems: number,
): DeliveryPaging {
  const paging = deliveryPaging(page, tokens, pageSize);
  const first = page.before === undefined && page.after === undefined;
  const last = tokens.at(-1);
  if (first && !paging.older && last && totalItems > tokens.length) paging.older = { before: last };
  return paging;
}

function localDay(value: string, hours: number, minutes: number, seconds: number): Date {
  const [year, month, date] = value.split('-').map(Number);
  return new Date(year, month - 1, date, hours, minutes, seconds);
}

function isDay(value: string): boolean {
  const [year, month, date] = value.split('-').map(Number);
  const parsed = new Date(Date.UTC(year, month - 1, date));
  return (
    parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date
  );
}

function withoutEmpty(filters: ResultsFilters): ResultsFilters {
  const clean: ResultsFilters = { state: filters.state };
  if (filters.query) clean.query = filters.query;
  if (filters.since) clean.since = filters.since;
  if (filters.until) clean.until = filters.until;
  if (filters.answered) clean.answered = filters.answered;
  return clean;
}
