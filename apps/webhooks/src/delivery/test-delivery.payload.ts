import { wholeSecondsIso } from '@formline/contracts';

// The body of a test delivery: Typeform's webhook payload in the shape a
// submission's has (response-submitted.event.ts), with no answers, hidden
// fields or questions, and a token that starts `test-`, so a receiver checks
// its address, TLS and signature on a real request and can drop the event.
export function testDeliveryBody(formId: string, eventId: string, now: Date): string {
  const at = wholeSecondsIso(now);
  return JSON.stringify({
    event_id: eventId,
    event_type: 'form_response',
    form_response: {
      form_id: formId,
      token: `test-${eventId}`,
      landed_at: at,
      submitted_at: at,
      hidden: {},
      calculated: { score: 0 },
      variables: [],
      definition: {
        id: formId,
        title: 'Test delivery',
        fields: [],
        endings: [],
        settings: { partial_responses_to_all_integrations: false },
      },
      answers: [],
    },
  });
}
