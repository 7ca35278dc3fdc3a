import { deliveryPaging } from './delivery-pages.route';

describe("the delivery log's pages", () => {
  it('offers nothing on a first page that is not full', () => {
    expect(deliveryPaging({}, ['d3', 'd2'], 20)).toEqual({});
    expect(deliveryPaging({}, [], 20)).toEqual({});
  });

  it('offers older ones after a full first page, by the last id shown', () => {
    expect(deliveryPaging({}, ['d3', 'd2'], 2)).toEqual({ older: { before: 'd2' } });
  });

  it('offers the newest and newer ones from any other page, by the first id shown', () => {
    expect(deliveryPaging({ before: 'd5' }, ['d4', 'd3'], 2)).toEqual({
      newest: {},
      newer: { after: 'd4' },
      older: { before: 'd3' },
    });
    // A last page (not full): nothing older.
    expect(deliveryPaging({ before: 'd2' }, ['d1'], 2)).toEqual({ newest: {}, newer: { after: 'd1' } });
    // Reached by `after`: its cursor is older still.
    expect(deliveryPaging({ after: 'd2' }, ['d3'], 2)).toEqual({
      newest: {},
      newer: { after: 'd3' },
      older: { before: 'd3' },
    });
  });

  it('finds its way from an empty page, by its cursor', () => {
    expect(deliveryPaging({ before: 'gone' }, [], 2)).toEqual({ newest: {}, newer: { after: 'gone' } });
    expect(deliveryPaging({ after: 'gone' }, [], 2)).toEqual({
      newest: {},
      newer: {},
      older: { before: 'gone' },
    });
  });
});
