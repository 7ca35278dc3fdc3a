import {
  attemptOutcome,
  type Attempt,
  type Delivery,
  deliveryStanding,
  lastDeliverySummary,
  latency,
} from './delivery.format';

const attempt = (fields: Partial<Attempt>): Attempt => ({
  attempted_at: '2026-01-01T10:00:00.000Z',
  status: 'succeeded',
  status_code: 200,
  duration_ms: 12,
  error_kind: null,
  error: null,
  next_retry_at: null,
  ...fields,
});
const delivery = (fields: Partial<Delivery>): Delivery => ({
  id: 'd1',
  event_id: 'e1',
  status: 'succeeded',
  attempt_count: 1,
  next_attempt_at: null,
  created_at: '2026-01-01T10:00:00.000Z',
  attempts: [attempt({})],
  ...fields,
});

describe('the delivery log in words', () => {
  it("says each attempt's outcome: the receiver's status, or why no answer came", () => {
    expect(attemptOutcome(attempt({}))).toBe('Succeeded, HTTP 200');
    expect(attemptOutcome(attempt({ status: 'sending', status_code: null }))).toBe('Sending…');
    expect(
      attemptOutcome(
        attempt({ status: 'failed', status_code: 500, error_kind: 'http_status', error: 'HTTP 500' }),
      ),
    ).toBe('Failed, HTTP 500: the receiver answered with an error');
    expect(
      attemptOutcome(
        attempt({ status: 'failed', status_code: null, error_kind: 'timeout', error: 'timed out' }),
      ),
    ).toBe('Failed, no answer in time');
    expect(attemptOutcome(attempt({ status: 'failed', status_code: null, error_kind: null }))).toBe(
      'Failed, no answer',
    );
    expect(
      attemptOutcome(attempt({ status: 'interrupted', status_code: null, error_kind: 'interrupted' })),
    ).toBe('Interrupted');
  });

  it('says latencies in milliseconds, then seconds', () => {
    expect(latency(85)).toBe('85 ms');
    expect(latency(1234)).toBe('1.2 s');
    expect(latency(30_000)).toBe('30 s');
  });

  it('says where a delivery stands, and why a failed one stopped', () => {
    expect(deliveryStanding(delivery({}))).toBe('Delivered after 1 attempt.');
    const now = new Date('2026-01-01T10:00:00.000Z');
    expect(deliveryStanding(delivery({ status: 'pending', attempt_count: 0, attempts: [] }), now)).toBe(
      'Waiting to be sent (0 attempts so far).',
    );
    expect(
      deliveryStanding(
        delivery({ status: 'pending', attempt_count: 2, next_attempt_at: '2026-01-01T09:59:00Z' }),
        now,
      ),
    ).toBe('Being sent again now (2 attempts so far).');
    expect(
      deliveryStanding(
        delivery({ status: 'pending', attempt_count: 2, next_attempt_at: '2026-01-01T11:00:00Z' }),
        now,
      ),
    ).toMatch(/^Trying again at .+ \(2 attempts so far\)\.$/);
    expect(
      deliveryStanding(
        delivery({
          status: 'failed',
          attempt_count: 8,
          attempts: [
            attempt({ status: 'failed', status_code: 503, error_kind: 'http_status', error: 'HTTP 503' }),
          ],
        }),
      ),
    ).toBe('Stopped after 8 attempts: HTTP 503');
    expect(deliveryStanding(delivery({ status: 'failed', attempt_count: 0, attempts: [] }))).toBe(
      'Stopped after 0 attempts: no attempt was recorded',
    );
  });

  it("sums up a webhook's newest delivery for its line in the list", () => {
    expect(lastDeliverySummary(undefined)).toBe('No delivery yet');
    expect(lastDeliverySummary(delivery({}))).toMatch(/^Delivered \(.+\)$/);
    expect(
      lastDeliverySummary(
        delivery({
          status: 'failed',
          attempts: [attempt({ status: 'failed', status_code: 500, error_kind: 'http_status' })],
        }),
      ),
    ).toMatch(/^Failed: HTTP 500: the receiver answered with an error \(.+\)$/);
    expect(lastDeliverySummary(delivery({ status: 'pending', attempt_count: 2 }))).toMatch(
      /^Pending, 2 tried \(/,
    );
  });
});
