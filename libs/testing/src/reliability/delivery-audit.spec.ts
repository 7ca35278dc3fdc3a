import { auditDeliveries } from './delivery-audit';

describe('auditDeliveries', () => {
  const accepted = new Map([
    ['k1', 't1'],
    ['k2', 't2'],
    ['k3', 't3'],
  ]);

  it('counts a clean run: all stored once, delivered once', () => {
    const audit = auditDeliveries({
      accepted,
      stored: [
        { token: 't1', idempotencyKey: 'k1' },
        { token: 't2', idempotencyKey: 'k2' },
        { token: 't3', idempotencyKey: 'k3' },
      ],
      deliveries: ['t2', 't1', 't3'],
    });
    expect(audit).toMatchObject({
      accepted: 3,
      stored: 3,
      storedTwice: 0,
      delivered: 3,
      duplicates: 0,
      lost: 0,
    });
  });

  it('counts duplicates, double storage, and what was lost', () => {
    const audit = auditDeliveries({
      accepted,
      stored: [
        { token: 't1', idempotencyKey: 'k1' },
        { token: 't1b', idempotencyKey: 'k1' },
        { token: 't2', idempotencyKey: 'k2' },
        { token: 'x', idempotencyKey: 'other' },
      ],
      deliveries: ['t1', 't1', 't1', 't3'],
    });
    expect(audit).toMatchObject({
      accepted: 3,
      stored: 2, // t3 never stored
      storedTwice: 1, // k1
      delivered: 2,
      duplicates: 2,
      duplicateRatePercent: 100,
      lost: 2, // t2 not delivered, t3 not stored
      storedUnannounced: 2, // t1b and x
    });
    expect(audit.lostTokens.sort()).toEqual(['t2', 't3']);
  });
});
