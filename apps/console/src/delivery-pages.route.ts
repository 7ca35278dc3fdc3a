// A page of a list paged by cursor, as the API pages deliveries and responses:
// the one before an id (older), after one (newer), or the newest.
export type DeliveryPage = { before?: string; after?: string };

/** Where each of the log's paging buttons leads; none: the button is off. */
export interface DeliveryPaging {
  newest?: DeliveryPage;
  newer?: DeliveryPage;
  older?: DeliveryPage;
}

// The delivery log's pages, by the API's cursor: Older passes the last id
// shown as `before`, Newer the first as `after`, Newest drops the cursor.
// The API gives no total, so a full page may have older ones beyond it, and
// a page reached by `after` always does (the cursor's own delivery). On an
// empty page (its cursor gone) the cursor itself is the way on.
export function deliveryPaging(page: DeliveryPage, ids: readonly string[], pageSize: number): DeliveryPaging {
  const first = page.before === undefined && page.after === undefined;
  const firstId = ids[0];
  const lastId = ids.at(-1);
  const paging: DeliveryPaging = {};
  if (!first) {
    paging.newest = {};
    paging.newer = firstId ? { after: firstId } : page.before ? { after: page.before } : {};
  }
  if (ids.length === pageSize || page.after !== undefined) {
    const cursor = lastId ?? page.after;
    if (cursor) paging.older = { before: cursor };
  }
  return paging;
}
