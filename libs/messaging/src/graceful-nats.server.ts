import { ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';

type NatsServerOptions = ConstructorParameters<typeof ServerNats>[0];

const pollMs = 20;

// Resolves once nothing is in work, or when the grace period is over,
// whichever comes first.
export async function waitWhileInFlight(inFlight: () => number, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (inFlight() > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, deadline - Date.now()))));
  }
}

// Nest's NATS server, closing gracefully, unsubscribes and then waits out its
// whole grace period before it closes the connection, however little is in
// work: every stop of every service (each rollout, each crash-looping pod's
// restart, each test's stack) took the full two seconds. This one unsubscribes
// the same way and then waits only while requests are in work (counted by the
// in-flight limit every service has), up to the same grace period; their
// replies go out before the connection closes, as the close flushes them.
//
// It also starts only once NATS holds its subscriptions. Nest's server reports
// itself listening as soon as it has sent them, and NATS reads a subscription
// from one connection and a request from another in no set order: a request
// sent the moment a replica said it was started (a test, a rollout's readiness
// check, a caller waiting for it) could find no responder and answer 503. A
// flush (a round trip to NATS) after subscribing closes that window.
export class GracefulNatsServer extends ServerNats {
  private subscribedOn?: Pick<NatsConnection, 'flush'>;

  constructor(
    options: NatsServerOptions,
    readonly inFlight: () => number,
    readonly graceMs: number,
  ) {
    super({ ...options, gracefulShutdown: true, gracePeriod: graceMs });
  }

  override bindEvents(client: Pick<NatsConnection, 'flush'>): void {
    super.bindEvents(client);
    this.subscribedOn = client;
  }

  override start(callback: (error?: unknown) => void): void {
    super.start((error?: unknown) => {
      if (error || !this.subscribedOn) return callback(error);
      this.subscribedOn.flush().then(
        () => callback(),
        (flushError: unknown) => callback(flushError),
      );
    });
  }
}

// The wait is a private method of Nest's server, so it is replaced here rather
// than overridden in the class (TypeScript forbids that); the unit spec fails
// if a Nest upgrade renames it, which would bring the fixed wait back.
Object.defineProperty(GracefulNatsServer.prototype, 'waitForGracePeriod', {
  value: function waitForGracePeriod(this: GracefulNatsServer): Promise<void> {
    return waitWhileInFlight(this.inFlight, this.graceMs);
  },
});
