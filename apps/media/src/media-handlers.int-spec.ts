import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { mediaConfigSchema } from '@formline/app-config';
import { parseConfig } from '@formline/config';
import { deleteRespondentFiles, type StoredFile } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { connectNats, RpcClient } from '@formline/messaging';
import { LocalDiskObjectStore } from '@formline/object-storage';
import { currentRequestId } from '@formline/ops';
import { testInfra, testMediaForwardingKey } from '@formline/testing';
import { FILE_STORE } from './files/file.store';
import { connectMediaHandlers } from './media-handlers';
import { MediaModule } from './media.module';

// Media's NATS handlers in the hybrid app as main.ts builds it (HTTP on
// Fastify, the NATS handlers connected beside it by connectMediaHandlers),
// against the test profile's NATS, called as the responses service calls
// them: a failure reaches the caller as the error body every service sends
// (the error filter), a request past NATS_MAX_IN_FLIGHT is refused at once
// (the in-flight limit), a handler runs under its caller's request id, and a
// close waits for a delete in work (the graceful server reads the limit's
// count). Nest logs no warning while the app starts.
const natsUrl = testInfra().natsUrl.us;
const file: StoredFile = { formId: 'form-media', fieldId: 'field-a', fileName: 'a.txt' };

interface HeldDelete {
  started: Promise<void>;
  release: () => void;
}

// The file store, whose deletes a test can hold in work or make fail.
class TestFileStore extends LocalDiskObjectStore {
  private held?: { started: () => void; released: Promise<void> };
  failure?: Error;
  readonly requestIds: (string | undefined)[] = [];

  holdNextDelete(): HeldDelete {
    let started = () => undefined as void;
    let release = () => undefined as void;
    const startedPromise = new Promise<void>((resolve) => (started = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { started, released };
    unreleased.push(release);
    return { started: startedPromise, release };
  }

  override async delete(keys: readonly string[]): Promise<void> {
    this.requestIds.push(currentRequestId());
    if (this.failure) throw this.failure;
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.started();
      await held.released;
    }
    await super.delete(keys);
  }
}

interface RunningMedia {
  app: INestApplication;
  store: TestFileStore;
  warnings: string[];
}

// Every hold a test made, released after it even when it failed halfway.
const unreleased: (() => void)[] = [];
let scratch: string;
let caller: NatsConnection;
let rpc: RpcClient;
const running: INestApplication[] = [];

async function startMedia(): Promise<RunningMedia> {
  const config = parseConfig(mediaConfigSchema, {
    REGION: 'us',
    BASE_URL: 'http://127.0.0.1:1',
    EU_BASE_URL: 'http://127.0.0.1:2',
    NATS_URL: natsUrl,
    NATS_RECONNECT_WAIT_MS: '100',
    NATS_MAX_IN_FLIGHT: '1',
    HTTP_PORT: '0',
    OPS_PORT: '0',
    IMAGE_STORAGE_DIR: path.join(scratch, 'images'),
    FILE_STORAGE_DIR: path.join(scratch, 'files'),
    MEDIA_FORWARDING_KEY: testMediaForwardingKey,
    LOG_LEVEL: 'warn',
  });
  const store = new TestFileStore(config.FILE_STORAGE_DIR);
  const warnings: string[] = [];
  const record =
    (level: string) =>
    (message: unknown, ...params: unknown[]) =>
      warnings.push(`${level} [${String(params.at(-1))}] ${String(message)}`);
  const moduleRef = await Test.createTestingModule({ imports: [MediaModule.forConfig(config)] })
    .overrideProvider(FILE_STORE)
    .useValue(store)
    .compile();
  const app = moduleRef.createNestApplication(new FastifyAdapter(), {
    logger: { log: () => undefined, warn: record('WARN'), error: record('ERROR') },
  });
  running.push(app);
  connectMediaHandlers(app, config);
  await app.init();
  await app.startAllMicroservices();
  return { app, store, warnings };
}

// Handled at once: a reply that fails while a test waits on something else
// fails that test, not the whole run.
function deleteRequest(requestId: string): Promise<{ deleted: number }> {
  const reply = rpc.request(deleteRespondentFiles, { files: [file] }, requestId);
  reply.catch(() => undefined);
  return reply;
}

// Resolves once the held delete has begun; fails at once if the request was
// answered instead (no handler took it, or one that does not hold).
async function inWork(held: HeldDelete, reply: Promise<unknown>): Promise<void> {
  const answered = reply.then((value) => {
    throw new Error(`answered before the delete began: ${JSON.stringify(value)}`);
  });
  await Promise.race([held.started, answered]);
}

async function failureOf(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    (reply) => new Error(`expected a failure, got ${JSON.stringify(reply)}`),
    (failure: unknown) => failure,
  );
  if (!(error instanceof DomainError)) throw error;
  return error;
}

describe("media's NATS handlers", () => {
  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'media-handlers-'));
    caller = await connectNats({ NATS_URL: natsUrl, NATS_RECONNECT_WAIT_MS: 100 }, 'media-handlers-caller');
    rpc = new RpcClient(caller, 10_000);
  });

  afterEach(async () => {
    for (const release of unreleased.splice(0)) release();
    await Promise.all(running.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    await caller.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('start without a warning from Nest', async () => {
    const { warnings } = await startMedia();
    expect(warnings).toEqual([]);
  });

  it("answer a failure with the service's error body", async () => {
    const { store } = await startMedia();
    // A request that breaks its contract: the contract's own error, as sent.
    const invalid = await failureOf(rpc.request(deleteRespondentFiles, { files: [] }, 'request-invalid'));
    expect(invalid.code).toBe(ErrorCode.ValidationError);
    // A store that fails: an internal error that names only its id.
    store.failure = new Error('the disk is on fire');
    const failed = await failureOf(deleteRequest('request-failing'));
    expect(failed.code).toBe(ErrorCode.InternalError);
    expect(failed.description).toMatch(/^Internal error, id [0-9a-f-]{36}\.$/);
  });

  it("run a delete under its caller's request id", async () => {
    const { store } = await startMedia();
    await expect(deleteRequest('request-traced')).resolves.toEqual({ deleted: 1 });
    expect(store.requestIds).toEqual(['request-traced']);
  });

  it('refuse a request past NATS_MAX_IN_FLIGHT at once', async () => {
    const { store } = await startMedia();
    const held = store.holdNextDelete();
    const first = deleteRequest('request-first');
    await inWork(held, first);
    const refusedAt = Date.now();
    const refused = await failureOf(deleteRequest('request-second'));
    expect(refused.code).toBe(ErrorCode.ServiceUnavailable);
    expect(refused.description).toMatch(/at capacity/);
    expect(Date.now() - refusedAt).toBeLessThan(2000);
    held.release();
    await expect(first).resolves.toEqual({ deleted: 1 });
  });

  it('close once the delete in work has its reply, not before', async () => {
    const { app, store } = await startMedia();
    const held = store.holdNextDelete();
    const reply = deleteRequest('request-in-work');
    await inWork(held, reply);
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    running.splice(running.indexOf(app), 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);
    held.release();
    await expect(reply).resolves.toEqual({ deleted: 1 });
    await closing;
  });
});
