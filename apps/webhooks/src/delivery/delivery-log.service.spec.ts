import { inputLimits } from '@formline/input';
import type { DeliveryQueue, DeliveryRepository, DeliveryRow } from '@formline/webhook-delivery';
import type { WebhookService } from '../webhook/webhook.service';
import { DeliveryLogService } from './delivery-log.service';

// A page of the delivery log fits one NATS message whatever its attempts'
// errors hold: it keeps the deliveries that fit inputLimits.pageBytes, those
// nearest the cursor first.
describe('DeliveryLogService.list', () => {
  const third = Math.floor(inputLimits.pageBytes / 3);
  const row = (id: string): DeliveryRow => ({
    id,
    eventId: `event-${id}`,
    status: 'failed',
    attemptCount: 1,
    nextAttemptAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    attempts: [
      {
        attemptedAt: new Date('2026-01-01T00:00:01Z'),
        inFlightUntil: null,
        statusCode: 500,
        durationMs: 10,
        errorKind: null,
        error: 'x'.repeat(third),
        nextRetryAt: null,
      },
    ],
  });
  const service = new DeliveryLogService(
    { find: () => Promise.resolve({ id: 'webhook' }) } as unknown as WebhookService,
    { page: () => Promise.resolve(['d4', 'd3', 'd2', 'd1'].map(row)) } as unknown as DeliveryRepository,
    {} as DeliveryQueue,
  );
  const key = { accountId: 'account', formId: 'form', tag: 'tag' };

  it('cuts a page at its bytes, keeping the newest', async () => {
    const page = await service.list(key, { pageSize: 4 });
    expect(page.map((item) => item.id)).toEqual(['d4', 'd3']);
  });

  it('keeps those nearest an `after` cursor, shown newest first', async () => {
    const page = await service.list(key, { pageSize: 4, after: 'd0' });
    expect(page.map((item) => item.id)).toEqual(['d2', 'd1']);
  });
});
