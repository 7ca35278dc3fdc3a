import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits } from '@formline/input';
import type { BuiltResponse } from './response.builder';
import { storedJson } from './response.writer';

// A built response whose answer text is `text`, and its event carrying the same.
function built(text: string): BuiltResponse {
  const times = { landed_at: '2026-01-01T00:00:00Z', submitted_at: '2026-01-01T00:00:01Z' };
  const answers = [{ type: 'text', text, field: { id: 'f', type: 'short_text' } }];
  return {
    token: 't',
    responseType: 'completed',
    landedAt: new Date(times.landed_at),
    submittedAt: new Date(times.submitted_at),
    resource: { token: 't', response_id: 't', ...times, answers },
    event: {
      event_id: 'e',
      event_type: 'form_response',
      account_id: 'a',
      form_response: { form_id: 'f', token: 't', ...times, answers },
    } as unknown as BuiltResponse['event'],
    searchText: text,
  };
}

describe('storedJson', () => {
  it('answers the texts stored and published, each serialised once', () => {
    const response = built('Ada');
    expect(storedJson(response)).toEqual({
      resource: JSON.stringify(response.resource),
      event: JSON.stringify(response.event),
    });
  });

  it('refuses a response larger than a stored response may be once built (413)', () => {
    // Counted in UTF-8 bytes: three bytes a character here.
    const tooLarge = built('€'.repeat(Math.ceil(inputLimits.storedBytes / 3) + 1));
    expect(() => storedJson(tooLarge)).toThrow(DomainError);
    try {
      storedJson(tooLarge);
    } catch (error) {
      expect((error as DomainError).code).toBe(ErrorCode.PayloadTooLarge);
      expect((error as DomainError).message).toMatch(/too large once stored/);
    }
    // Just under the bound, in bytes, it is kept.
    const fits = built('€'.repeat(Math.floor((inputLimits.storedBytes - 400) / 3)));
    expect(() => storedJson(fits)).not.toThrow();
  });
});
