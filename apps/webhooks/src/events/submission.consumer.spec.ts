import { JetStreamError } from '@nats-io/jetstream';
import { isPullCutShort } from './submission.consumer';

// Which ends of a pull the submission consumer pulls again at once, and which
// pause it (nats.js reports the server's statuses lower-cased).
describe('isPullCutShort', () => {
  it.each(['heartbeats missed', 'leadership change', 'server shutdown'])('pulls again after %s', (reason) => {
    expect(isPullCutShort(new JetStreamError(reason))).toBe(true);
  });

  it.each([
    ['the consumer deleted', new JetStreamError('consumer deleted')],
    ['too many pulls waiting', new JetStreamError('exceeded maxwaiting')],
    ['any other failure', new Error('heartbeats missed')],
  ])('pauses after %s', (_, error) => {
    expect(isPullCutShort(error)).toBe(false);
  });
});
