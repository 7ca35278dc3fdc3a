import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { defineByteRpc } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { testInfra } from '@formline/testing';
import { z } from 'zod';
import { ByteRpcResponder } from './byte-rpc.responder';
import { InFlightBudget } from './in-flight-budget';
import { connectNats } from './nats-connection';
import { RpcClient } from './rpc-client';

// A byte reply between two connections of the test profile's NATS: the
// bytes arrive as they were sent, the meta beside them; every failure
// reaches the caller as the error it is, at once.
describe('byte replies over NATS', () => {
  const contract = defineByteRpc({
    subject: `test.byte-rpc.${randomUUID()}`,
    request: z.object({ say: z.string().max(100), bytes: z.int().min(0).default(0) }),
    meta: z.object({ said: z.string() }),
  });
  let served: NatsConnection;
  let calling: NatsConnection;
  let responder: ByteRpcResponder;
  let client: RpcClient;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    const settings = { NATS_URL: testInfra().natsUrl.us, NATS_RECONNECT_WAIT_MS: 100 };
    [served, calling] = await Promise.all([
      connectNats(settings, 'byte-rpc-responder'),
      connectNats(settings, 'byte-rpc-client'),
    ]);
    responder = new ByteRpcResponder(served, { queue: 'byte-rpc-spec', budget: new InFlightBudget(1) });
    responder.serve(contract, async ({ say, bytes }) => {
      if (say === 'refuse') throw new DomainError(ErrorCode.FormNotFound, 'No such form.');
      if (say === 'crash') throw new Error('a bug, with internals');
      if (say === 'wait') await new Promise<void>((resolve) => (release = resolve));
      const body = bytes > 0 ? Buffer.alloc(bytes, 0x61) : Buffer.from(`{"text":"é\\n✓"}\n${say}\n`);
      return { meta: { said: say }, body };
    });
    await served.flush();
    client = new RpcClient(calling, 2000);
  });

  afterAll(async () => {
    await responder.stop();
    await Promise.all([served.close(), calling.close()]);
  });

  const failure = (payload: { say: unknown; bytes?: number }) =>
    client.requestBytes(contract, payload as { say: string }, 'request-1').then(
      () => undefined,
      (error: unknown) => error as DomainError,
    );

  it('hands the bytes over as they were sent, the meta beside them', async () => {
    const reply = await client.requestBytes(contract, { say: 'hello' }, 'request-1');
    expect(reply.meta).toEqual({ said: 'hello' });
    expect(Buffer.from(reply.body).equals(Buffer.from('{"text":"é\\n✓"}\nhello\n'))).toBe(true);
  });

  it('carries a reply up to NATS’ limit, and refuses a larger one at once', async () => {
    const limit = calling.info!.max_payload;
    expect((await client.requestBytes(contract, { say: 'big', bytes: limit - 4096 }, 'r')).body.length).toBe(
      limit - 4096,
    );
    const started = Date.now();
    const error = await failure({ say: 'big', bytes: limit });
    expect(error?.code).toBe(ErrorCode.ResponseTooLarge);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('passes on the service’s errors: its own as they are, a bad request, anything else by its id only', async () => {
    expect((await failure({ say: 'refuse' }))?.toBody()).toEqual({
      code: ErrorCode.FormNotFound,
      description: 'No such form.',
    });
    const invalid = await failure({ say: 42 });
    expect(invalid?.code).toBe(ErrorCode.ValidationError);
    expect(invalid?.toBody().details?.[0]).toMatchObject({ field: 'say' });
    const crashed = await failure({ say: 'crash' });
    expect(crashed?.code).toBe(ErrorCode.InternalError);
    expect(crashed?.description).toMatch(/^Internal error, id [0-9a-f-]{36}\.$/);
  });

  it('answers SERVICE_UNAVAILABLE past its requests in work, and the one in work when stopped', async () => {
    const waiting = client.requestBytes(contract, { say: 'wait' }, 'r');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await failure({ say: 'now' }))?.code).toBe(ErrorCode.ServiceUnavailable);
    const stopped = responder.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await stopped;
    expect((await waiting).meta).toEqual({ said: 'wait' });
    expect((await failure({ say: 'later' }))?.code).toBe(ErrorCode.ServiceUnavailable);
  });
});
