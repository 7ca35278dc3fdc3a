import { ServerNats } from '@nestjs/microservices';
import { GracefulNatsServer, waitWhileInFlight } from './graceful-nats.server';

describe('GracefulNatsServer', () => {
  afterEach(() => jest.useRealTimers());

  it("replaces the wait Nest's server runs on close (a renamed wait would bring the fixed one back)", () => {
    const base = ServerNats.prototype as unknown as Record<string, unknown>;
    expect(typeof base.waitForGracePeriod).toBe('function');
    const server = new GracefulNatsServer({ servers: ['nats://127.0.0.1:1'] }, () => 0, 60_000);
    const own = server as unknown as { waitForGracePeriod: () => Promise<void> };
    expect(own.waitForGracePeriod).not.toBe(base.waitForGracePeriod);
  });

  it('says it has started only once NATS has answered after its subscriptions', async () => {
    const server = new GracefulNatsServer({ servers: ['nats://127.0.0.1:1'] }, () => 0, 60_000);
    const subscribed: string[] = [];
    let answer = () => undefined as void;
    const client = {
      subscribe: (subject: string) => subscribed.push(subject),
      flush: () => new Promise<void>((resolve) => (answer = resolve)),
    };
    server.addHandler('a.subject', () => Promise.resolve('reply'), false);
    let started = false;
    (server as unknown as { natsClient: typeof client }).natsClient = client;
    server.start(() => (started = true));
    await Promise.resolve();
    expect(subscribed).toEqual(['a.subject']);
    expect(started).toBe(false);
    answer();
    await Promise.resolve();
    await Promise.resolve();
    expect(started).toBe(true);
  });

  it('does not wait when nothing is in work', async () => {
    jest.useFakeTimers();
    let done = false;
    void waitWhileInFlight(() => 0, 60_000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('waits while requests are in work, and no longer', async () => {
    jest.useFakeTimers();
    let inFlight = 2;
    let done = false;
    void waitWhileInFlight(() => inFlight, 60_000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(false);
    inFlight = 0;
    await jest.advanceTimersByTimeAsync(50);
    expect(done).toBe(true);
  });

  it('gives up at the end of the grace period', async () => {
    jest.useFakeTimers();
    let done = false;
    void waitWhileInFlight(() => 1, 2_000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(1_990);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(20);
    expect(done).toBe(true);
  });
});
