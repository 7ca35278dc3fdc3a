import { connect, type NatsConnection } from '@nats-io/transport-node';

export interface NatsSettings {
  NATS_URL: string;
  NATS_RECONNECT_WAIT_MS: number;
}

// A connection that outlives NATS outages: it waits for the server at boot and
// reconnects forever, so a restart of NATS never needs a restart of the app.
export async function connectNats(settings: NatsSettings, name: string): Promise<NatsConnection> {
  return connect({
    servers: settings.NATS_URL.split(','),
    name,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: settings.NATS_RECONNECT_WAIT_MS,
  });
}

// Whether the connection can carry a message right now. nats.js buffers
// publishes while it reconnects; callers that must answer fast check this first.
export class NatsLink {
  private connected = true;

  constructor(readonly connection: NatsConnection) {
    void this.follow();
  }

  isUp(): boolean {
    return this.connected && !this.connection.isClosed();
  }

  private async follow(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect') this.connected = false;
      if (status.type === 'reconnect') this.connected = true;
    }
    this.connected = false;
  }
}
