import { connect } from '@nats-io/transport-node';
import { eventually } from './eventually';

export interface AnnouncementListener {
  /**
   * Waits for the first payload `last` matches and answers the payloads heard
   * before it since the previous call (not the match itself). Announce a
   * marker last on the same connection as the changes: NATS keeps one
   * connection's order, so whatever the changes announced is heard by then.
   */
  takeUntil(last: (payload: any) => boolean): Promise<unknown[]>;
  close(): Promise<void>;
}

// Listens on a core NATS subject (a change announcement: nothing keeps it, so
// the listener must be there first), as a spec checks that a change told the
// gateways, or did not.
export async function listenForAnnouncements(
  natsUrl: string,
  subject: string,
): Promise<AnnouncementListener> {
  const connection = await connect({ servers: natsUrl });
  const subscription = connection.subscribe(subject);
  const heard: unknown[] = [];
  const reading = (async () => {
    for await (const message of subscription) heard.push(message.json());
  })();
  // The subscription is known to the server before the spec's first change.
  await connection.flush();
  return {
    takeUntil: async (last) => {
      const at = await eventually(
        () => heard.findIndex(last),
        (index) => index >= 0,
      );
      if (at < 0) throw new Error(`the last announcement awaited on ${subject} was never heard`);
      return heard.splice(0, at + 1).slice(0, at);
    },
    close: async () => {
      await connection.drain();
      await reading;
    },
  };
}
