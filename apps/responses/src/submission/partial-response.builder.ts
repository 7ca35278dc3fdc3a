import type { ResponseType } from '@formline/contracts';
import { type BuiltResponse, buildResponse, type ResponseFacts } from './response.builder';

// Typeform shows a response that was never submitted with the zero time as
// its submitted_at (its Responses API and partial webhooks alike).
export const notSubmittedAt = '0001-01-01T00:00:00Z';

// A respondent's progress before the final submit, as Typeform shows a
// partial response: `partial` once something is answered, `started` before;
// not submitted, and with no ending (none was reached). Its event is a
// `form_response_partial`. The stored row's submitted_at column keeps the
// time of the save, the order in which the listing pages.
export function buildPartialResponse(facts: ResponseFacts): BuiltResponse {
  const built = buildResponse(facts);
  const responseType: ResponseType = facts.answers.length > 0 ? 'partial' : 'started';
  const { ending: _resourceEnding, ...resource } = built.resource;
  const { ending: _eventEnding, ...formResponse } = built.event.form_response;
  return {
    ...built,
    responseType,
    resource: { ...resource, response_type: responseType, submitted_at: notSubmittedAt },
    event: {
      ...built.event,
      event_type: 'form_response_partial',
      form_response: { ...formResponse, submitted_at: notSubmittedAt },
    },
  };
}
