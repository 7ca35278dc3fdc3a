import { DomainError, ErrorCode } from '@formline/errors';
import { parseFormDefinition } from '@formline/form-definition';
import { inputLimits } from '@formline/input';
import type { OutboxRelayJob } from '../outbox/outbox-relay.job';
import type { OutboxRow } from '../outbox/outbox.repository';
import type { NewResponse, ResponseRepository } from '../response.repository';
import type { FileAnswers } from './file-answers';
import type { BuiltResponse } from './response.builder';
import { ResponseWriter, storedJson } from './response.writer';

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
    answeredFields: [],
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

// The hand-off to the relay's fast path: what the repository wrote goes to
// publishCommitted at once, as the texts that were measured and stored.
describe('ResponseWriter', () => {
  const definition = parseFormDefinition({
    title: 'Hand-off',
    fields: [{ ref: 'name', title: 'Name', type: 'short_text' }],
  }).definition;

  function writer(stored: 'written' | 'lost') {
    const writes: NewResponse[] = [];
    const committed: OutboxRow[] = [];
    const write = (response: NewResponse) => {
      writes.push(response);
      if (stored === 'lost') return Promise.resolve(null);
      return Promise.resolve({
        id: response.built.event.event_id,
        subject: 's',
        payload: response.json.event,
        requestId: null,
      });
    };
    const responses = {
      insertWithEvent: write,
      updateInProgress: (_id: string, response: NewResponse) => write(response),
    } as unknown as ResponseRepository;
    const relay = {
      publishCommitted: (row: OutboxRow) => committed.push(row),
      nudge: () => undefined,
    } as unknown as OutboxRelayJob;
    const files = {
      check: () => Promise.resolve([]),
      present: (_form: string, _token: string, answers: unknown[]) => answers,
    } as unknown as FileAnswers;
    return { writer: new ResponseWriter(responses, relay, files), writes, committed };
  }

  const step = (inProgress?: { id: string; landedAt: Date }) => ({
    kind: 'completed' as const,
    formId: 'form1',
    accountId: 'acc1',
    definition,
    checked: {
      path: { visited: [], variables: { score: 0, price: 0 }, ending: definition.thankyou_screens[0] },
      answers: [],
      hidden: {},
    },
    metadata: {},
    inProgress,
    requestHash: 'hash',
  });

  it.each([
    ['a new response', undefined],
    ['the response in progress', { id: 'r1', landedAt: new Date('2026-01-01T00:00:00Z') }],
  ])('hands the event written with %s to the relay at once, as stored', async (_name, inProgress) => {
    const { writer: responseWriter, writes, committed } = writer('written');
    const built = await responseWriter.write(step(inProgress));
    expect(built).toBeDefined();
    expect(writes).toHaveLength(1);
    expect(writes[0].json).toEqual({
      resource: JSON.stringify(built!.resource),
      event: JSON.stringify(built!.event),
    });
    expect(committed).toEqual([
      { id: built!.event.event_id, subject: 's', payload: writes[0].json.event, requestId: null },
    ]);
  });

  it('hands nothing to the relay when nothing was written (a concurrent write won)', async () => {
    const { writer: responseWriter, committed } = writer('lost');
    expect(await responseWriter.write(step())).toBeUndefined();
    expect(committed).toEqual([]);
  });
});
