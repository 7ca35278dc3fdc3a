import { endOfSecond, parsePointInTime } from './point-in-time';

describe('parsePointInTime', () => {
  // (A date-time without an offset read on a host outside UTC is proven
  // end to end: response-listing.e2e-spec.ts runs the gateway with another TZ.)
  it.each([
    ['2020-03-20T14:00:59', '2020-03-20T14:00:59.000Z'],
    ['2020-03-20 14:00:59', '2020-03-20T14:00:59.000Z'],
    ['2020-03-20T14:00', '2020-03-20T14:00:00.000Z'],
    ['2020-03-20', '2020-03-20T00:00:00.000Z'],
    ['2020-03-20T14:00:59Z', '2020-03-20T14:00:59.000Z'],
    ['2020-03-20T14:00:59.750Z', '2020-03-20T14:00:59.000Z'],
    ['2020-03-20T16:00:59+02:00', '2020-03-20T14:00:59.000Z'],
    ['2020-03-20T16:00:59+0200', '2020-03-20T14:00:59.000Z'],
    ['2020-03-20T09:00:59-05', '2020-03-20T14:00:59.000Z'],
    ['1584712859', '2020-03-20T14:00:59.000Z'],
  ])('reads %s as %s', (value, expected) => {
    expect(parsePointInTime(value)?.toISOString()).toBe(expected);
  });

  it.each(['yesterday', '2020-02-30', '2020-13-01', '2020-03-20T25:00:00', '2020-03-20T14:00:59+2', ''])(
    'refuses %s',
    (value) => {
      expect(parsePointInTime(value)).toBeUndefined();
    },
  );
});

describe('endOfSecond', () => {
  it('is the last millisecond of the second', () => {
    expect(endOfSecond(new Date('2020-03-20T14:00:59Z')).toISOString()).toBe('2020-03-20T14:00:59.999Z');
    expect(endOfSecond(new Date('2020-03-20T14:00:59.400Z')).toISOString()).toBe('2020-03-20T14:00:59.999Z');
  });
});
