import { hashOf, routeFromHash } from './console.route';
import {
  apiFilters,
  checkedFilters,
  queryOfResultsView,
  resultsPaging,
  type ResultsView,
  resultsViewFromQuery,
} from './results-filter.route';

const viewOf = (query: string) => resultsViewFromQuery(new URLSearchParams(query));

describe("the Results screen's filters in the address", () => {
  it('reads the newest completed responses from an address without a query', () => {
    expect(viewOf('')).toEqual({ filters: { state: 'completed' }, page: {}, open: undefined });
    expect(routeFromHash('#/forms/abc/results')).toEqual({
      screen: 'results',
      formId: 'abc',
      view: { filters: { state: 'completed' }, page: {}, open: undefined },
    });
    expect(
      hashOf({ screen: 'results', formId: 'abc', view: { filters: { state: 'completed' }, page: {} } }),
    ).toBe('#/forms/abc/results');
  });

  it('writes what it reads: every filter, a cursor and the response opened', () => {
    const views: ResultsView[] = [
      {
        filters: {
          query: 'a b&c?',
          since: '2026-01-01',
          until: '2026-01-31',
          state: 'partial',
          answered: 'q1',
        },
        page: { before: 'tok/1' },
        open: 'tok2',
      },
      { filters: { state: 'all' }, page: { after: 'z' } },
      { filters: { state: 'completed', query: 'ü' }, page: {} },
    ];
    for (const view of views) {
      const route = { screen: 'results', formId: 'f 1', view } as const;
      expect(routeFromHash(hashOf(route))).toEqual({ ...route, view: { open: undefined, ...view } });
    }
    expect(queryOfResultsView(views[1])).toBe('state=all&after=z');
  });

  it('drops what it cannot take: an unknown state, a day that is no date, a long value, two cursors', () => {
    expect(viewOf('state=done&since=2026-02-30&until=yesterday&query=' + 'x'.repeat(201))).toEqual({
      filters: { state: 'completed' },
      page: {},
      open: undefined,
    });
    expect(viewOf('before=a&after=b').page).toEqual({ before: 'a' });
    expect(viewOf(`open=${'t'.repeat(65)}`).open).toBeUndefined();
    expect(routeFromHash('#/forms/f/results/more')).toEqual({ screen: 'forms' });
  });
});

describe('the filters as typed', () => {
  it('trims the search, drops empty fields, and refuses days out of order or not dates', () => {
    expect(checkedFilters({ state: 'all', query: '  ada ', since: '', answered: undefined })).toEqual({
      ok: true,
      filters: { state: 'all', query: 'ada' },
    });
    expect(checkedFilters({ state: 'completed', since: '2026-03-02', until: '2026-03-01' })).toEqual({
      ok: false,
      message: 'The last day comes before the first day.',
    });
    expect(checkedFilters({ state: 'completed', since: '2026-13-01' })).toMatchObject({ ok: false });
  });
});

describe('the filters as the API takes them', () => {
  it('names the response types, and sends whole days of the browser in UTC', () => {
    expect(apiFilters({ state: 'completed' })).toMatchObject({ response_type: 'completed' });
    expect(apiFilters({ state: 'partial' })).toMatchObject({ response_type: 'partial,started' });
    expect(apiFilters({ state: 'all', query: 'ada', answered: 'q1' })).toMatchObject({
      response_type: 'completed,partial,started',
      query: 'ada',
      answered_fields: 'q1',
    });
    const { since, until } = apiFilters({ state: 'completed', since: '2026-01-05', until: '2026-01-06' });
    expect(since).toBe(new Date(2026, 0, 5, 0, 0, 0).toISOString());
    expect(until).toBe(new Date(2026, 0, 6, 23, 59, 59).toISOString());
    expect(apiFilters({ state: 'completed' })).toMatchObject({ since: undefined, until: undefined });
  });
});

describe("the Results screen's pages", () => {
  it('pages by token as the delivery log does, and trusts the first page when more match than it shows', () => {
    expect(resultsPaging({}, ['t3', 't2'], 2, 2)).toEqual({ older: { before: 't2' } });
    expect(resultsPaging({}, ['t3', 't2'], 50, 2)).toEqual({});
    // A first page cut short (answers too large for one reply): more match.
    expect(resultsPaging({}, ['t3', 't2'], 50, 5)).toEqual({ older: { before: 't2' } });
    expect(resultsPaging({ before: 't4' }, ['t3'], 50, 9)).toEqual({ newest: {}, newer: { after: 't3' } });
    expect(resultsPaging({}, [], 50, 0)).toEqual({});
  });
});
