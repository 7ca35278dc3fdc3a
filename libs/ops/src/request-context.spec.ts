import {
  acceptRequestId,
  currentRequestId,
  requestIdHeaders,
  runWithRequestId,
  withRequestId,
} from './request-context';

describe('request context', () => {
  it('keeps a usable caller id and replaces anything else', () => {
    expect(acceptRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    expect(acceptRequestId(['first', 'second'])).toBe('first');
    for (const bad of [undefined, '', 'has space', 'line\nbreak', '"quoted"', 'x'.repeat(129), 42])
      expect(acceptRequestId(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('follows the work across awaits and timers, and not beyond it', async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await runWithRequestId('r-1', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return new Promise<string | undefined>((resolve) => setTimeout(() => resolve(currentRequestId()), 1));
    });
    expect(seen).toBe('r-1');
    expect(currentRequestId()).toBeUndefined();
  });

  it('makes one up for work that arrives without one', () => {
    runWithRequestId(undefined, () => expect(currentRequestId()).toMatch(/^[0-9a-f-]{36}$/));
  });

  it('hands the id on: HTTP headers and queued job data', () => {
    runWithRequestId('r-2', () => {
      expect(requestIdHeaders()).toEqual({ 'X-Request-Id': 'r-2' });
      expect(withRequestId({ eventId: 'e', webhookId: 'w' })).toEqual({
        eventId: 'e',
        webhookId: 'w',
        requestId: 'r-2',
      });
    });
    expect(requestIdHeaders()).toEqual({});
    expect(withRequestId({ eventId: 'e' })).toEqual({ eventId: 'e' });
  });
});
