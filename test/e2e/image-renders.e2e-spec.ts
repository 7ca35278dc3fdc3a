import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { largeTestImage, sampleValue, scrapeMetrics, useTestRegions } from '@formline/testing';

// The media app's image work under bursts, through the gateway: the first
// requests for one size of a large image share one render (media's render
// counter moves by one,
// one variant is stored), a full render pool answers 503 with Retry-After
// (never another 5xx), and small reads are served meanwhile.

function smallImage(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#369' } })
    .png()
    .toBuffer();
}

const imageEnv = (dir: string) => ({
  IMAGE_STORAGE_DIR: dir,
  IMAGE_MAX_BYTES: String(8 * 1024 * 1024),
  IMAGE_MAX_PIXELS: '25000000',
});

describe('image renders', () => {
  const { regions, api, scratchDir, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'media'],
    extraEnv: ({ scratchDir: dir }) => imageEnv(dir),
    accounts: { alice: 'us' },
  });
  const { alice } = accounts;
  const renders = async () =>
    sampleValue(
      (await scrapeMetrics(regions.stacks.us!.settings.opsPorts.media)).samples,
      'formline_image_renders_total',
    );

  it('renders a size once for a burst of first requests, and serves a small image meanwhile', async () => {
    const small = await smallImage();
    const uploaded = await api(alice, 'POST', '/images', {
      image: (await largeTestImage()).toString('base64'),
      file_name: 'large.jpg',
    });
    expect(uploaded.status).toBe(201);
    const smallUpload = await api(alice, 'POST', '/images', {
      image: small.toString('base64'),
      file_name: 'small.png',
    });
    expect(smallUpload.status).toBe(201);
    const largeSrc: string = uploaded.body.src;
    const smallSrc: string = smallUpload.body.src;
    expect((await fetch(smallSrc)).status).toBe(200);
    const before = await renders();

    const burst = Array.from({ length: 12 }, async () => {
      const answer = await fetch(`${largeSrc}/background/default`);
      return { status: answer.status, bytes: Buffer.from(await answer.arrayBuffer()) };
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const read = await fetch(smallSrc);
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer())).toEqual(small);

    const answers = await Promise.all(burst);
    expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map(({ bytes }) => bytes.toString('base64'))).size).toBe(1);
    const meta = await sharp(answers[0].bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1920, 1920]);
    expect((await renders()) - before).toBe(1);
    const stored = await readdir(join(scratchDir, 'images', uploaded.body.id));
    expect(stored.sort()).toEqual(['background-default', 'original']);

    // Read again: from the store, no render.
    expect((await fetch(`${largeSrc}/background/default`)).status).toBe(200);
    expect((await renders()) - before).toBe(1);
  });

  // Renders give way to the API's processes: every thread of the media app,
  // those started for the renders above included, runs at MEDIA_NICE (10).
  it('runs every thread of the media app at a lowered CPU priority', async () => {
    const threads = await threadsOf(regions.stacks.us!.app('media').pid!);
    expect(threads.filter(({ name }) => name.startsWith('libuv-worker')).length).toBeGreaterThan(0);
    expect(threads.filter(({ nice }) => nice !== 10)).toEqual([]);
  });
});

// Each thread of a process, its name and its nice value (/proc's stat: the
// 19th field, counted past the name in parentheses, which may hold spaces).
async function threadsOf(pid: number): Promise<Array<{ name: string; nice: number }>> {
  const tasks = await readdir(`/proc/${pid}/task`);
  return Promise.all(
    tasks.map(async (task) => {
      const stat = await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { name, nice: Number(fields[16]) };
    }),
  );
}

describe('image renders past a full render pool', () => {
  const { api, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'media'],
    extraEnv: ({ scratchDir: dir }) => ({
      ...imageEnv(dir),
      IMAGE_RENDER_CONCURRENCY: '1',
      IMAGE_RENDER_QUEUE: '1',
    }),
    accounts: { bob: 'us' },
  });
  const { bob } = accounts;

  it('answers 503 with Retry-After for the sizes past the queue, serves the rest and other reads, and renders the refused ones later', async () => {
    const uploaded = await api(bob, 'POST', '/images', {
      image: (await largeTestImage()).toString('base64'),
      file_name: 'large.jpg',
    });
    expect(uploaded.status).toBe(201);
    const src: string = uploaded.body.src;
    const sizes = [
      'background/default',
      'background/tablet',
      'background/mobile',
      'image/default',
      'image/mobile',
      'choice/default',
      'choice/supersize',
      'choice/supermobile',
    ];
    const burst = sizes.map(async (size) => {
      const answer = await fetch(`${src}/${size}`);
      const body = Buffer.from(await answer.arrayBuffer());
      return { size, status: answer.status, retryAfter: answer.headers.get('retry-after'), body };
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Not image work: served while the pool is full.
    const form = await api(bob, 'GET', `/forms/${bob.formId}`);
    expect(form.status).toBe(200);

    const answers = await Promise.all(burst);
    expect(answers.filter(({ status }) => status !== 200 && status !== 503)).toEqual([]);
    const refused = answers.filter(({ status }) => status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.some(({ status }) => status === 200)).toBe(true);
    for (const { retryAfter, body } of refused) {
      expect(retryAfter).toBe('1');
      expect(JSON.parse(body.toString())).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        description: expect.stringMatching(/as many images as it can/),
      });
    }
    // Asked again one at a time, each refused size renders.
    for (const { size } of refused) expect((await fetch(`${src}/${size}`)).status).toBe(200);
  });
});
