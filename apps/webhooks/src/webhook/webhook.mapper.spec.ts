import type { ResponseSubmittedEvent } from '@formline/contracts';
import { wantsEvent } from './webhook.mapper';

const event = (
  eventType: ResponseSubmittedEvent['event_type'],
  partialsToAll?: boolean,
): ResponseSubmittedEvent => ({
  event_id: 'e1',
  event_type: eventType,
  account_id: 'a1',
  form_response: {
    form_id: 'f1',
    token: 't1',
    landed_at: '2026-11-23T12:00:00Z',
    submitted_at: '0001-01-01T00:00:00Z',
    definition: { settings: { partial_responses_to_all_integrations: partialsToAll } },
  },
});

describe('wantsEvent', () => {
  const completesOnly = { form_response: true };
  const partialsOnly = { form_response_partial: true };

  it('gives a webhook the kinds it subscribed to', () => {
    expect(wantsEvent(completesOnly, event('form_response'))).toBe(true);
    expect(wantsEvent(completesOnly, event('form_response_partial'))).toBe(false);
    expect(wantsEvent(partialsOnly, event('form_response_partial'))).toBe(true);
    expect(wantsEvent(partialsOnly, event('form_response'))).toBe(false);
  });

  it('gives every webhook the partial responses of a form that sends them to all integrations', () => {
    expect(wantsEvent(completesOnly, event('form_response_partial', true))).toBe(true);
    expect(wantsEvent(completesOnly, event('form_response_partial', false))).toBe(false);
    // It widens partials only: a partials-only webhook still gets no completed response.
    expect(wantsEvent(partialsOnly, event('form_response', true))).toBe(false);
  });
});
