import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { createGlobalDatabase } from '@formline/db';
import {
  callApi,
  databaseUrl,
  eventually,
  freePort,
  sampleValue,
  type Sample,
  scrapeMetrics,
  testInfra,
  WebhookReceiver,
} from '@formline/testing';
import { builtImages } from './built-images';
import { ContainerEngine } from './container-engine';
import {
  anotherReplica,
  type AppContainer,
  appContainers,
  jobContainers,
  type LocalRegion,
  renderedRegion,
} from './region-from-manifests';

// Region us run from the images `npm run test:images` just built, as the
// rendered manifests of deploy/overlays/us declare it (region-from-manifests.ts
// says what changes on a machine without a cluster), against the test
// profile's PostgreSQL, NATS and Redis: the migration Jobs, then the six apps,
// then traffic, a second replica of two apps, and a stop as the kubelet does it.
describe('a region run from the images', () => {
  const engine = ContainerEngine.fromEnvironment();
  const infra = testInfra();
  const logDir = path.join(infra.dataDir, 'logs', 'images');
  const databases = {
    global: databaseUrl(infra, 'formline_images_global'),
    responses: databaseUrl(infra, 'formline_images_responses_us'),
    webhooks: databaseUrl(infra, 'formline_images_webhooks_us'),
  };
  const local: LocalRegion = {
    secrets: {
      'formline-global-database/url': databases.global,
      'formline-responses-database/url': databases.responses,
      'formline-webhooks-database/url': databases.webhooks,
      'formline-webhook-secret-key/key': randomBytes(32).toString('base64'),
      'formline-media-forwarding-key/key': randomBytes(32).toString('base64'),
      // Never used by this test (it uploads nothing), required by the apps' settings.
      'formline-image-storage/access-key-id': 'unused',
      'formline-image-storage/secret-access-key': 'unused',
      'formline-file-storage/access-key-id': 'unused',
      'formline-file-storage/secret-access-key': 'unused',
    },
    services: {
      'nats-us:4222': `127.0.0.1:${process.env.NATS_PORT_US}`,
      // A Redis database of its own (9), emptied by the setup: no job left by another test.
      'redis-us:6379/0': `127.0.0.1:${process.env.REDIS_PORT_US}/9`,
    },
    images: { formline: builtImages().app, 'formline-migrate': builtImages().migrate },
    freePort,
    // The test's receiver listens on 127.0.0.1, an address the URL policy
    // refuses by default (as in production): allowed here, for the apps that check.
    extraEnv: (app): Record<string, string> =>
      app === 'webhooks' || app === 'dispatcher' ? { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } : {},
  };
  const objects = renderedRegion('us');
  const started: AppContainer[] = [];
  let apps: Record<string, AppContainer>;
  let receiver: WebhookReceiver;
  let baseUrl: string;
  let token: string;

  beforeAll(async () => {
    mkdirSync(logDir, { recursive: true });
    receiver = await WebhookReceiver.start();
    receiver.answer('/burst', () => ({ status: 200, delayMs: 100 }));
  });

  afterAll(async () => {
    for (const container of started) {
      await saveLogs(container.name);
      await engine.remove(container.name);
    }
    await receiver?.stop();
  });

  async function saveLogs(name: string) {
    const text = await engine.logs(name).catch((error: unknown) => String(error));
    writeFileSync(path.join(logDir, `${name}.log`), text);
  }

  async function startApp(container: AppContainer) {
    await engine.start(container);
    started.push(container);
  }

  // Ready as the kubelet would see it: /health/ready on the port its readiness
  // probe names. Waited for generously, not within the startup probe's budget:
  // on a shared, loaded machine that would be a timed assertion.
  async function readiness(container: AppContainer): Promise<number | string> {
    const url = `http://127.0.0.1:${container.opsPort}${container.readinessPath}`;
    const status = await eventually(
      () =>
        fetch(url, { signal: AbortSignal.timeout(3000) }).then(
          (response) => response.status,
          (error: unknown) => String(error),
        ),
      (answer) => answer === 200,
      Math.max(3 * container.startupSeconds, 180) * 1000,
      250,
    );
    if (status !== 200) {
      await saveLogs(container.name);
      return `${container.name}: ${String(status)} (logs in ${logDir})`;
    }
    return status;
  }

  it('migrates the databases with the migrate image, as the Jobs do', async () => {
    const jobs = jobContainers(objects, local);
    expect(jobs.map((job) => job.job).sort()).toEqual([
      'migrate-global',
      'migrate-responses',
      'migrate-webhooks',
    ]);
    const exits = await Promise.all(
      jobs.map(async (job) => {
        await engine.start(job);
        const exitCode = await engine.wait(job.name);
        await saveLogs(job.name);
        await engine.remove(job.name);
        return { job: job.job, exitCode };
      }),
    );
    expect(exits).toEqual(jobs.map((job) => ({ job: job.job, exitCode: 0 })));
  });

  it('starts the six apps as their Deployments declare, and each turns ready', async () => {
    const containers = await appContainers(objects, local);
    apps = Object.fromEntries(containers.map((container) => [container.app, container]));
    expect(Object.keys(apps).sort()).toEqual([
      'dispatcher',
      'gateway',
      'global',
      'media',
      'responses',
      'webhooks',
    ]);
    for (const container of containers) {
      // What the manifests say, carried to the container: a non-root user and a read-only root.
      expect({
        app: container.app,
        user: container.user,
        readOnly: container.readOnlyRootFilesystem,
      }).toEqual({
        app: container.app,
        user: '1000:1000',
        readOnly: true,
      });
      await startApp(container);
    }
    const ready = await Promise.all(containers.map((container) => readiness(container)));
    expect(ready).toEqual(containers.map(() => 200));
    baseUrl = `http://127.0.0.1:${apps.gateway.httpPort}`;
  });

  it('creates a form, takes a submission, delivers the signed webhook and reads the response back', async () => {
    const db = createGlobalDatabase(databases.global);
    try {
      const { accountId } = await createAccount(db, {
        alias: 'images',
        email: 'images@example.com',
        region: 'us',
      });
      token = await mintPersonalAccessToken(db, { accountId, name: 'images' });
    } finally {
      await db.$disconnect();
    }
    const created = await callApi(`${baseUrl}/forms`, {
      token,
      method: 'POST',
      body: { title: 'From the images', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
    });
    expect(created.status).toBe(201);
    const formId = created.body.id as string;
    const secret = 'images-signing-secret';
    const hook = await callApi(`${baseUrl}/forms/${formId}/webhooks/first`, {
      token,
      method: 'PUT',
      body: { url: receiver.url('/first'), enabled: true, secret },
    });
    expect(hook.status).toBe(200);

    const submitted = await callApi(`${baseUrl}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: 7 }] },
    });
    expect(submitted.status).toBe(201);
    const [delivery] = await receiver.until('/first', (requests) => requests.length >= 1, 60_000);
    expect(delivery.headers['typeform-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(delivery.body).digest('base64')}`,
    );
    expect(JSON.parse(delivery.body)).toMatchObject({
      event_type: 'form_response',
      form_response: { form_id: formId, token: submitted.body.token },
    });

    const responses = await eventually(
      () => callApi(`${baseUrl}/forms/${formId}/responses`, { token }),
      (answer) => answer.body?.total_items === 1,
      60_000,
    );
    expect(responses.body.items).toEqual([
      expect.objectContaining({
        token: submitted.body.token,
        answers: [expect.objectContaining({ type: 'number', number: 7 })],
      }),
    ]);
  });

  it('scales global and dispatcher: both replicas take a share, nothing is handled twice', async () => {
    const second = {
      global: await anotherReplica(apps.global, local, 2),
      dispatcher: await anotherReplica(apps.dispatcher, local, 2),
    };
    await startApp(second.global);
    await startApp(second.dispatcher);
    expect(await Promise.all([readiness(second.global), readiness(second.dispatcher)])).toEqual([200, 200]);
    const replicas = {
      global: [apps.global, second.global],
      dispatcher: [apps.dispatcher, second.dispatcher],
    };
    const scrapeAll = async (containers: AppContainer[]) =>
      Promise.all(containers.map(async (container) => (await scrapeMetrics(container.opsPort)).samples));
    const handled = (samples: Sample[]) =>
      sampleValue(samples, 'formline_nats_handler_duration_seconds_count');
    const delivered = (samples: Sample[]) =>
      sampleValue(samples, 'formline_delivery_attempts_total', { outcome: 'delivered' });
    const globalBefore = (await scrapeAll(replicas.global)).map(handled);
    const dispatcherBefore = (await scrapeAll(replicas.dispatcher)).map(delivered);

    const form = await callApi(`${baseUrl}/forms`, {
      token,
      method: 'POST',
      body: { title: 'Burst', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
    });
    const formId = form.body.id as string;
    await callApi(`${baseUrl}/forms/${formId}/webhooks/burst`, {
      token,
      method: 'PUT',
      body: { url: receiver.url('/burst'), enabled: true },
    });
    const submissions = 30;
    const writes = 20;
    const work: (() => Promise<number>)[] = [];
    for (let i = 0; i < submissions; i += 1) {
      work.push(() =>
        callApi(`${baseUrl}/forms/${formId}/submissions`, {
          method: 'POST',
          body: { answers: [{ field: { ref: 'n' }, type: 'number', number: i }] },
        }).then((answer) => answer.status),
      );
      work.push(() => callApi(`${baseUrl}/forms/${formId}`, { token }).then((answer) => answer.status));
    }
    // Writes too: a gateway may cache reads, never a write.
    for (let i = 0; i < writes; i += 1)
      work.push(() =>
        callApi(`${baseUrl}/forms`, { token, method: 'POST', body: { title: `Burst ${i}` } }).then(
          (answer) => answer.status,
        ),
      );
    // A few at a time: enough for both replicas to be busy at once, few enough
    // that a shared, loaded machine answers each within the RPC timeout.
    const statuses = await inParallel(work, 4);
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    const burst = await receiver.until('/burst', (requests) => requests.length >= submissions, 120_000);

    // Each submission's webhook arrived once: one event id each.
    const eventIds = burst.map((request) => (JSON.parse(request.body) as { event_id: string }).event_id);
    expect(new Set(eventIds).size).toBe(submissions);
    const all = await scrapeAll(started);
    const globalAfter = (await scrapeAll(replicas.global)).map(handled);
    // A dispatcher counts a delivery once the receiver has answered and the
    // attempt is recorded, a moment after the receiver saw it: wait for that.
    const dispatcherAfter = await eventually(
      async () => (await scrapeAll(replicas.dispatcher)).map(delivered),
      (counts) => counts.reduce((sum, value) => sum + value, 0) >= receiver.received.length,
    );
    const shares = {
      global: globalAfter.map((after, i) => after - globalBefore[i]),
      dispatcher: dispatcherAfter.map((after, i) => after - dispatcherBefore[i]),
    };
    // Both replicas of each took a share.
    expect(shares.global.every((share) => share > 0)).toBe(true);
    expect(shares.dispatcher.every((share) => share > 0)).toBe(true);
    // Nothing twice: every request to a forms subject that got its reply was
    // handled once, by one replica (a replica outside the queue group would
    // handle it too); every delivery was sent by one dispatcher.
    const formsSubjects = new Set(
      (await scrapeAll(replicas.global))
        .flat()
        .filter((sample) => sample.name === 'formline_nats_handler_duration_seconds_count')
        .map((sample) => sample.labels.subject),
    );
    const asked = all
      .flat()
      .filter(
        (sample) =>
          sample.name === 'formline_nats_request_duration_seconds_count' &&
          formsSubjects.has(sample.labels.subject) &&
          sample.labels.outcome !== 'unavailable',
      )
      .reduce((sum, sample) => sum + sample.value, 0);
    expect(globalAfter.reduce((sum, value) => sum + value, 0)).toBe(asked);
    expect(dispatcherAfter.reduce((sum, value) => sum + value, 0)).toBe(receiver.received.length);
    console.log(
      `shares of the burst: global ${shares.global.join('/')}, dispatcher ${shares.dispatcher.join('/')}`,
    );
  });

  it('stops every container on SIGTERM with exit 0 within its grace period', async () => {
    const stops = await Promise.all(
      started.map(async (container) => {
        const begin = Date.now();
        // The kubelet runs the preStop hook, then sends SIGTERM; the grace period counts both.
        if (container.preStop) await engine.exec(['exec', container.name, ...container.preStop]);
        const left = Math.max(1, Math.ceil(container.graceSeconds - (Date.now() - begin) / 1000));
        // SIGTERM, and SIGKILL once the grace period is over: exit 0 (not
        // 137) says the app ended by itself, in time.
        await engine.stop(container.name, left);
        const { running, exitCode } = await engine.state(container.name);
        return { name: container.name, running, exitCode, seconds: (Date.now() - begin) / 1000 };
      }),
    );
    console.log(`stopped: ${stops.map((stop) => `${stop.name} ${stop.seconds.toFixed(1)} s`).join(', ')}`);
    expect(stops.map(({ name, running, exitCode }) => ({ name, running, exitCode }))).toEqual(
      started.map((container) => ({ name: container.name, running: false, exitCode: 0 })),
    );
  });
});

// Runs the tasks with at most `width` of them in flight; their results in order.
async function inParallel<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}
