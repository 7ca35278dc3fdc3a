import { cursorFilter, sortColumn } from './response.repository';

describe('paging by cursor', () => {
  const anchor = {
    id: 'b',
    submittedAt: new Date('2026-01-01T10:00:00Z'),
    landedAt: new Date('2026-01-01T09:00:00Z'),
  };

  it('pages on the column the listing is sorted by', () => {
    const column = sortColumn({ sort: { field: 'landed_at', order: 'desc' } });
    expect(cursorFilter(column, anchor, 'lt')).toEqual({
      landedAt: { lte: anchor.landedAt },
      OR: [{ landedAt: { lt: anchor.landedAt } }, { landedAt: anchor.landedAt, id: { lt: 'b' } }],
    });
  });

  it('pages on submitted_at by default', () => {
    const column = sortColumn({ sort: { field: 'submitted_at', order: 'desc' } });
    expect(cursorFilter(column, anchor, 'gt')).toEqual({
      submittedAt: { gte: anchor.submittedAt },
      OR: [{ submittedAt: { gt: anchor.submittedAt } }, { submittedAt: anchor.submittedAt, id: { gt: 'b' } }],
    });
  });
});
