import type { OutboundUrlPolicy } from '@formline/outbound-url';
import type { SecretBox } from '@formline/webhook-delivery';
import type { WebhookRepository, WebhookRow } from './webhook.repository';
import { WebhookService } from './webhook.service';

// The PUT of a webhook against another call's write to the same tag: a
// creation that finds the tag taken changes that webhook, a change that finds
// it deleted creates it again, and only a second loss in a row is a 409.
describe('WebhookService.upsert when another call writes the same tag', () => {
  const rowOf = (webhook: Partial<WebhookRow> = {}): WebhookRow => ({
    id: 'w1',
    accountId: 'account',
    formId: 'form',
    tag: 'crm',
    url: 'https://example.com/hook',
    enabled: true,
    verifySsl: true,
    secretSealed: null,
    eventTypes: { form_response: true },
    disabledReason: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...webhook,
  });
  const fakeRepository = (steps: {
    found: Array<WebhookRow | null>;
    created?: Array<WebhookRow | 'tag-taken' | 'form-full'>;
    updated?: Array<WebhookRow | undefined>;
  }) => {
    const calls = {
      findByTag: jest.fn(() => Promise.resolve(steps.found.shift() ?? null)),
      createWithinCap: jest.fn((_webhook: unknown, _maxOfForm: number) =>
        Promise.resolve(steps.created!.shift()!),
      ),
      update: jest.fn((_id: string, _change: unknown, _seen?: unknown) =>
        Promise.resolve(steps.updated!.shift()),
      ),
    };
    return { calls, webhooks: calls as unknown as WebhookRepository };
  };
  const service = (webhooks: WebhookRepository, webhooksPerForm = 20) =>
    new WebhookService(
      webhooks,
      {} as SecretBox,
      { check: () => Promise.resolve() } as unknown as OutboundUrlPolicy,
      { WEBHOOKS_PER_FORM: webhooksPerForm },
    );
  const put = { accountId: 'account', formId: 'form', tag: 'crm', input: { url: 'https://example.com/new' } };

  it('changes the webhook a parallel creation made first', async () => {
    const { calls, webhooks } = fakeRepository({
      found: [null, rowOf()],
      created: ['tag-taken'],
      updated: [rowOf()],
    });
    expect(await service(webhooks).upsert(put)).toMatchObject({ created: false, webhook: { id: 'w1' } });
    expect(calls.update).toHaveBeenCalledTimes(1);
  });

  it('creates again the webhook a parallel deletion took away', async () => {
    const { webhooks } = fakeRepository({ found: [rowOf(), null], updated: [undefined], created: [rowOf()] });
    expect(await service(webhooks).upsert(put)).toMatchObject({ created: true });
  });

  it('merges a change of event types again into a subscription changed meanwhile', async () => {
    const read = rowOf({ eventTypes: { form_response: true } });
    const reread = rowOf({ eventTypes: { form_response: false } });
    const { calls, webhooks } = fakeRepository({
      found: [read, reread],
      updated: [undefined, rowOf({ eventTypes: { form_response: false, form_response_partial: true } })],
    });
    const change = { ...put, input: { event_types: { form_response_partial: true } } };
    expect(await service(webhooks).upsert(change)).toMatchObject({ created: false });
    // Each try writes only over the subscription it read, merged into it.
    expect(calls.update.mock.calls.map((call) => [call[1], call[2]])).toEqual([
      [
        expect.objectContaining({ eventTypes: { form_response: true, form_response_partial: true } }),
        read.eventTypes,
      ],
      [
        expect.objectContaining({ eventTypes: { form_response: false, form_response_partial: true } }),
        reread.eventTypes,
      ],
    ]);
  });

  it('answers 409 CONCURRENT_CHANGE when the second try loses too', async () => {
    const { webhooks } = fakeRepository({ found: [null, null], created: ['tag-taken', 'tag-taken'] });
    await expect(service(webhooks).upsert(put)).rejects.toMatchObject({
      code: 'CONFLICT',
      details: [{ code: 'CONCURRENT_CHANGE' }],
    });
  });

  it('answers 409 TOO_MANY_WEBHOOKS on a full form, trying once', async () => {
    const { calls, webhooks } = fakeRepository({ found: [null], created: ['form-full'] });
    await expect(service(webhooks, 3).upsert(put)).rejects.toMatchObject({
      code: 'CONFLICT',
      details: [{ code: 'TOO_MANY_WEBHOOKS', description: 'at most 3 webhooks a form' }],
    });
    expect(calls.createWithinCap).toHaveBeenCalledWith(expect.anything(), 3);
  });
});
