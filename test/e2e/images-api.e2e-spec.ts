import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { callApi, type TestAccount, useTestRegions } from '@formline/testing';

// Typeform's Images API on both base addresses: uploads as base64 or from a
// URL (through the address policy, bounded in bytes and pixels), the image
// and its sized variants served with caching headers, and forms that may only
// show their own account's images. Images are tiny, made here.
describe('Images API', () => {
  const {
    regions,
    api,
    scratchDir: storageDir,
    accounts,
  } = useTestRegions({
    apps: ['gateway', 'global', 'media'],
    extraEnv: ({ scratchDir }) => ({
      IMAGE_STORAGE_DIR: scratchDir,
      IMAGE_URL_ALLOWED_HOSTS: '127.0.0.1',
      IMAGE_MAX_BYTES: String(200 * 1024),
      IMAGE_MAX_PIXELS: '1000000',
    }),
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { alice, bob } = accounts;
  let origin: Server;
  let originUrl: string;
  let png: Buffer; // 600×400, half-transparent red

  beforeAll(async () => {
    png = await sharp({
      create: { width: 600, height: 400, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const big = await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#00f' } })
      .png()
      .toBuffer();
    // What a URL upload fetches from: an image, a redirect, something too large.
    origin = createServer((request, response) => {
      if (request.url === '/red.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (request.url === '/big.png') response.writeHead(200, { 'content-type': 'image/png' }).end(big);
      else if (request.url === '/moved') response.writeHead(302, { location: '/red.png' }).end();
      else if (request.url === '/huge') response.writeHead(200).end(Buffer.alloc(300 * 1024));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => origin?.close(resolve));
  });

  const upload = (account: TestAccount, body: unknown) => api(account, 'POST', '/images', body);

  it('uploads base64, lists, reads on both addresses, and keeps it from other accounts', async () => {
    const created = await upload(alice, { image: png.toString('base64'), file_name: 'red.png' });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect(created.body).toEqual({
      id,
      src: `${regions.baseUrl('us')}/images/${id}`,
      file_name: 'red.png',
      width: 600,
      height: 400,
      media_type: 'image/png',
      has_alpha: true,
      avg_color: '#ff0000',
    });
    // The same JSON on the EU address (images are form material, global like forms).
    expect((await api(alice, 'GET', `/images/${id}`, undefined, 'eu')).body).toEqual(created.body);
    const listed = await api(alice, 'GET', '/images');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body]);
    // Another account neither sees nor deletes it.
    const foreign = await api(bob, 'GET', `/images/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('IMAGE_NOT_FOUND');
    expect((await api(bob, 'DELETE', `/images/${id}`)).status).toBe(404);
    expect((await api(bob, 'GET', '/images')).body).toEqual([]);
  });

  it('serves the image and its sized variants to anyone, cacheable for good', async () => {
    const { body: image } = await upload(alice, { image: png.toString('base64'), file_name: 'red.png' });
    const original = await fetch(image.src);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(original.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await original.arrayBuffer())).toEqual(png);
    const etag = original.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await fetch(image.src, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const sizes: Array<[string, number, number]> = [
      ['choice/thumbnail', 256, 171],
      ['choice/supermobile', 400, 400], // cropped square, never enlarged
      ['background/mobile', 600, 400], // smaller than its box: as it is
    ];
    for (const [variant, width, height] of sizes) {
      const sized = await fetch(`${image.src}/${variant}`);
      expect(sized.status).toBe(200);
      expect(sized.headers.get('cache-control')).toContain('immutable');
      const meta = await sharp(Buffer.from(await sized.arrayBuffer())).metadata();
      expect([variant, meta.format, meta.width, meta.height]).toEqual([variant, 'png', width, height]);
    }
    const json = await callApi(`${image.src}/choice/thumbnail`, {
      token: alice.token,
      headers: { accept: 'application/json' },
    });
    expect(json.body).toMatchObject({
      id: image.id,
      src: `${image.src}/choice/thumbnail`,
      width: 256,
      height: 171,
    });
    // Sizes outside Typeform's lists, and JSON without a token.
    expect((await fetch(`${image.src}/choice/huge`)).status).toBe(404);
    expect((await fetch(`${image.src}/image/tablet`)).status).toBe(404);
    expect((await fetch(image.src, { headers: { accept: 'application/json' } })).status).toBe(401);
  });

  it('fetches a url through the address policy, bounded in bytes and pixels', async () => {
    const fetched = await upload(alice, { url: `${originUrl}/red.png`, file_name: 'from-url.png' });
    expect(fetched.status).toBe(201);
    expect(fetched.body).toMatchObject({ width: 600, height: 400, media_type: 'image/png' });
    const refusals: Array<[string, number, string]> = [
      ['https://localhost:1/x.png', 400, 'internal'], // refused by name, nothing is sent
      [`${originUrl}/moved`, 400, 'redirects are not followed'],
      [`${originUrl}/huge`, 413, 'larger than'],
      [`${originUrl}/big.png`, 400, 'at most 1000000 pixels'], // 1200×1000: a bomb in miniature
    ];
    for (const [url, status, words] of refusals) {
      const refused = await upload(alice, { url, file_name: 'x.png' });
      expect([url, refused.status]).toEqual([url, status]);
      expect(JSON.stringify(refused.body)).toContain(words);
    }
  });

  it('refuses what is not an image, both or neither source, and oversized base64', async () => {
    const cases: Array<[unknown, number, string]> = [
      [
        { image: Buffer.from('hello, not an image').toString('base64'), file_name: 'a.png' },
        400,
        'INVALID_IMAGE',
      ],
      [{ image: '%%%not base64%%%', file_name: 'a.png' }, 400, 'INVALID_IMAGE'],
      [
        { image: png.toString('base64'), url: `${originUrl}/red.png`, file_name: 'a.png' },
        400,
        'VALIDATION_ERROR',
      ],
      [{ file_name: 'a.png' }, 400, 'VALIDATION_ERROR'],
      [
        { image: Buffer.alloc(250 * 1024, 1).toString('base64'), file_name: 'a.png' },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [body, status, code] of cases) {
      const answer = await upload(alice, body);
      expect(answer.status).toBe(status);
      expect(JSON.stringify(answer.body)).toContain(code);
    }
  });

  it('lets a form show only its own account’s images, and deletes images with their bytes', async () => {
    const { body: image } = await upload(alice, { image: png.toString('base64'), file_name: 'red.png' });
    await fetch(`${image.src}/image/mobile`); // a variant now in the store
    const formWith = (href: string) => ({
      title: 'With a picture',
      fields: [
        {
          ref: 'q',
          title: 'Look',
          type: 'short_text',
          attachment: { type: 'image', href, properties: { description: 'red' } },
        },
      ],
    });
    const accepted = await api(alice, 'POST', '/forms', formWith(image.src));
    expect(accepted.status).toBe(201);
    expect(accepted.body.fields[0].attachment.href).toBe(image.src);
    // Bob may not use Alice's image, nor may anyone use an outside address.
    for (const [account, href] of [
      [bob, image.src],
      [alice, 'https://images.example.com/a.png'],
      [alice, `${regions.baseUrl('eu')}/images/NoSuchImage1234`],
    ] as const) {
      const refused = await api(account, 'POST', '/forms', formWith(href));
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([
        expect.objectContaining({ code: 'IMAGE_NOT_FOUND', field: 'fields[0].attachment.href' }),
      ]);
    }
    const files = async () => (await readdir(join(storageDir, 'images', image.id)).catch(() => [])).sort();
    expect(await files()).toEqual(['image-mobile', 'original']);
    expect((await api(alice, 'DELETE', `/images/${image.id}`)).status).toBe(204);
    expect(await files()).toEqual([]);
    expect((await api(alice, 'GET', `/images/${image.id}`)).status).toBe(404);
    expect((await fetch(image.src)).status).toBe(404);
    // A form that names the deleted image cannot be saved again.
    const replaced = await api(alice, 'PUT', `/forms/${accepted.body.id}`, formWith(image.src));
    expect(replaced.status).toBe(400);
    expect(replaced.body.details[0].code).toBe('IMAGE_NOT_FOUND');
  });
});
