// Where the console is, in the address's fragment, so a reload, a bookmark
// and the browser's Back button keep the screen (and the delivery log's page)
// without the gateway serving any path but /console. The fragment never
// reaches the server, and the sign-in's code and state stay in the query.
import type { DeliveryPage } from './delivery-pages.route';
import { queryOfResultsView, type ResultsView, resultsViewFromQuery } from './results-filter.route';

export type ConsoleRoute =
  | { screen: 'forms' }
  | { screen: 'webhooks'; formId: string }
  | { screen: 'results'; formId: string; view: ResultsView }
  | { screen: 'insights'; formId: string }
  | { screen: 'builder'; formId: string }
  | { screen: 'deliveries'; formId: string; tag: string; page: DeliveryPage };

/** A page of a delivery log: the newest, or those older or newer than a delivery id. */

// Ids and tags are short; anything longer is not a route of the console.
const maxSegment = 100;

export function routeFromHash(hash: string): ConsoleRoute {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?', 2);
  const segments = path.split('/').filter((segment) => segment !== '');
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return { screen: 'forms' };
  }
  if (decoded.some((segment) => segment.length > maxSegment)) return { screen: 'forms' };
  const [forms, formId, webhooks, tag, deliveries, ...rest] = decoded;
  if (forms === 'forms' && formId && webhooks === 'results' && tag === undefined) {
    return { screen: 'results', formId, view: resultsViewFromQuery(new URLSearchParams(query)) };
  }
  if (forms === 'forms' && formId && webhooks === 'insights' && tag === undefined) {
    return { screen: 'insights', formId };
  }
  if (forms === 'forms' && formId && webhooks === 'edit' && tag === undefined) {
    return { screen: 'builder', formId };
  }
  if (forms !== 'forms' || !formId || webhooks !== 'webhooks' || rest.length > 0) return { screen: 'forms' };
  if (tag === undefined) return { screen: 'webhooks', formId };
  if (deliveries !== 'deliveries') return { screen: 'webhooks', formId };
  const params = new URLSearchParams(query);
  const cursor = (name: string) => {
    const value = params.get(name);
    return value && value.length <= 64 ? value : undefined;
  };
  const before = cursor('before');
  // One cursor at a time, as the API takes them.
  const page: DeliveryPage = before ? { before } : cursor('after') ? { after: cursor('after') } : {};
  return { screen: 'deliveries', formId, tag, page };
}

export function hashOf(route: ConsoleRoute): string {
  if (route.screen === 'forms') return '#/';
  if (route.screen === 'results') {
    const query = queryOfResultsView(route.view);
    return `#/forms/${encodeURIComponent(route.formId)}/results${query ? `?${query}` : ''}`;
  }
  if (route.screen === 'insights') return `#/forms/${encodeURIComponent(route.formId)}/insights`;
  if (route.screen === 'builder') return `#/forms/${encodeURIComponent(route.formId)}/edit`;
  const webhooks = `#/forms/${encodeURIComponent(route.formId)}/webhooks`;
  if (route.screen === 'webhooks') return webhooks;
  const log = `${webhooks}/${encodeURIComponent(route.tag)}/deliveries`;
  const { before, after } = route.page;
  if (before) return `${log}?before=${encodeURIComponent(before)}`;
  if (after) return `${log}?after=${encodeURIComponent(after)}`;
  return log;
}
