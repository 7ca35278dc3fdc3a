import { deliveryJobId, firstAttemptsJobSchema, firstAttemptsPerJob } from './delivery.queue';

describe('the delivery queue', () => {
  it('names a first-attempts job after its set of deliveries, whatever their order', () => {
    const id = deliveryJobId.firstAttempts(['d1', 'd2', 'd3']);
    expect(deliveryJobId.firstAttempts(['d3', 'd1', 'd2'])).toBe(id);
    expect(deliveryJobId.firstAttempts(['d1', 'd2'])).not.toBe(id);
    // BullMQ refuses ':' in a custom id.
    expect(id).toMatch(/^first-[0-9a-f]{32}$/);
  });

  it('takes a first-attempts job of 1 to firstAttemptsPerJob deliveries, and no more', () => {
    const item = (n: number) => ({ deliveryId: `d${n}`, eventId: `e${n}`, webhookId: 'w' });
    const of = (count: number) => ({ deliveries: Array.from({ length: count }, (_, n) => item(n)) });
    expect(firstAttemptsJobSchema.safeParse(of(1)).success).toBe(true);
    expect(firstAttemptsJobSchema.safeParse(of(firstAttemptsPerJob)).success).toBe(true);
    expect(firstAttemptsJobSchema.safeParse(of(firstAttemptsPerJob + 1)).success).toBe(false);
    expect(firstAttemptsJobSchema.safeParse(of(0)).success).toBe(false);
  });
});
