import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsConnectionOptions, type NatsSettings } from './nats-options';

// Injects an app's NATS connection (an interface, so it needs a token of its own).
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

// A connection that outlives NATS outages: it waits for the server at boot and
// reconnects forever, so a restart of NATS never needs a restart of the app.
export async function connectNats(settings: NatsSettings, name: string): Promise<NatsConnection> {
  return connect({
    ...natsConnectionOptions(settings),
    name,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: settings.NATS_RECONNECT_WAIT_MS,
    // Otherwise every request and JetStream publish builds two Errors up front
    // (their stack traces are where a timeout started), about 7% of the
    // gateway's CPU on the intake path; our callers turn every NATS failure
    // into their own error and log it without a stack anyway.
    noAsyncTraces: true,
  });
}

// Whether the connection can carry a message right now, and a signal when it
// drops. nats.js buffers publishes while it reconnects and leaves requests in
// flight to time out; callers that must answer fast use both.
export class NatsLink {
  private connected = true;
  private readonly onDrop = new Set<() => void>();

  constructor(readonly connection: NatsConnection) {
    void this.follow();
  }

  isUp(): boolean {
    return this.connected && !this.connection.isClosed();
  }

  // Resolves when the connection drops; `cancel` forgets the wait.
  whenDropped(): { dropped: Promise<void>; cancel: () => void } {
    let listener!: () => void;
    const dropped = new Promise<void>((resolve) => {
      listener = resolve;
      this.onDrop.add(listener);
    });
    return { dropped, cancel: () => this.onDrop.delete(listener) };
  }

  private async follow(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect') this.drop();
      if (status.type === 'reconnect') this.connected = true;
    }
    this.drop();
  }

  private drop(): void {
    this.connected = false;
    for (const listener of this.onDrop) listener();
    this.onDrop.clear();
  }
}
