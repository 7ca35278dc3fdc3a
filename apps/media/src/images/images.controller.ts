import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import {
  deleteImage,
  getImage,
  type ImageKind,
  type ImageMediaType,
  type ImageResource,
  imageSizes,
  imageUploadSchema,
  listImages,
  locateImage,
  recordImage,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { newPublicId } from '@formline/ids';
import { RpcClient } from '@formline/messaging';
import type { ObjectStore } from '@formline/object-storage';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import type { FastifyReply } from 'fastify';
import { parseRequest, RequestId } from '@formline/http-edge';
import { MEDIA_CONFIG, type MediaConfig } from '@formline/app-config';
import { CallerAccount } from '../caller-account.decorator';
import { imageDimensions, inspectImage, renderVariant } from './image-processing';
import { variantBox } from './image-sizes';
import { fetchImageUrl, tooLarge } from './image-url.fetcher';
import { IMAGE_STORE, originalKey, variantKey } from './image.store';
import { recordImageRender } from './image-work.metrics';
import { RenderPool } from './render.pool';

// Images never change once uploaded, so their bytes may be cached for good.
const immutable = 'public, max-age=31536000, immutable';

// The routes that may queue work in the render pool: shed while it is full.
export const imageWorkRoutes = ['POST /images', 'GET /images/:image_id/:kind/:size'] as const;

// Typeform's Images API, behind the gateway (which declares and documents
// the routes, lets each request in and forwards it here with the caller's
// account). The bytes live in the image store, shared by both regions
// (images are form material, like forms themselves); the records in the
// global database, through the global service.
@Controller('images')
export class ImagesController {
  private readonly policy: OutboundUrlPolicy;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(IMAGE_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_CONFIG) private readonly config: MediaConfig,
    private readonly pool: RenderPool,
  ) {
    this.policy = new OutboundUrlPolicy(config.IMAGE_URL_ALLOWED_HOSTS);
  }

  @Post()
  @HttpCode(201)
  async upload(
    @RequestId() requestId: string,
    @CallerAccount() accountId: string | undefined,
    @Body() body: unknown,
  ): Promise<ImageResource> {
    const account = signedIn(accountId);
    const upload = parseRequest(imageUploadSchema, body, 'body');
    const limits = { maxBytes: this.config.IMAGE_MAX_BYTES, timeoutMs: this.config.IMAGE_FETCH_TIMEOUT_MS };
    const bytes =
      upload.image !== undefined
        ? decodeBase64(upload.image, limits.maxBytes)
        : await fetchImageUrl(upload.url ?? '', this.policy, limits);
    const facts = await this.pool.run(() => inspectImage(bytes, this.config.IMAGE_MAX_PIXELS));
    const id = newPublicId(16);
    await this.store.put(originalKey(id), bytes, facts.mediaType);
    try {
      return await this.rpc.request(
        recordImage,
        {
          accountId: account,
          image: { id, fileName: upload.file_name, byteSize: bytes.length, ...facts },
        },
        requestId,
      );
    } catch (error) {
      // No record, no image: the bytes go too (best effort; without a record they are never served).
      await this.store.delete([originalKey(id)]).catch(() => undefined);
      throw error;
    }
  }

  @Get()
  list(
    @RequestId() requestId: string,
    @CallerAccount() accountId: string | undefined,
  ): Promise<ImageResource[]> {
    return this.rpc.request(listImages, { accountId: signedIn(accountId) }, requestId);
  }

  @Get(':image_id')
  async retrieve(
    @RequestId() requestId: string,
    @CallerAccount() accountId: string | undefined,
    @Param('image_id') imageId: string,
    @Headers('accept') accept: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (wantsJson(accept, accountId)) {
      void reply.send(await this.rpc.request(getImage, { accountId: owner(accountId), imageId }, requestId));
      return;
    }
    const image = await this.rpc.request(locateImage, { imageId }, requestId);
    await this.sendBytes(reply, `"${image.id}"`, image.mediaType, ifNoneMatch, () => this.original(image.id));
  }

  @Get(':image_id/:kind/:size')
  async variant(
    @RequestId() requestId: string,
    @CallerAccount() accountId: string | undefined,
    @Param('image_id') imageId: string,
    @Param('kind') kind: string,
    @Param('size') size: string,
    @Headers('accept') accept: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const box = variantBox(kind, size);
    if (!box) {
      throw new DomainError(
        ErrorCode.NotFound,
        `No size ${size.slice(0, 40)} of kind ${kind.slice(0, 40)}: kinds and sizes are ${JSON.stringify(imageSizes)}.`,
      );
    }
    if (wantsJson(accept, accountId)) {
      const image = await this.rpc.request(getImage, { accountId: owner(accountId), imageId }, requestId);
      const bytes = await this.sized(image.id, image.media_type, kind as ImageKind, size);
      void reply.send({ ...image, src: `${image.src}/${kind}/${size}`, ...(await imageDimensions(bytes)) });
      return;
    }
    const image = await this.rpc.request(locateImage, { imageId }, requestId);
    await this.sendBytes(reply, `"${image.id}-${kind}-${size}"`, image.mediaType, ifNoneMatch, () =>
      this.sized(image.id, image.mediaType, kind as ImageKind, size),
    );
  }

  @Delete(':image_id')
  @HttpCode(204)
  async delete(
    @RequestId() requestId: string,
    @CallerAccount() accountId: string | undefined,
    @Param('image_id') imageId: string,
  ): Promise<void> {
    await this.rpc.request(deleteImage, { accountId: signedIn(accountId), imageId }, requestId);
    const variants = Object.entries(imageSizes).flatMap(([kind, sizes]) =>
      sizes.map((size) => variantKey(imageId, kind as ImageKind, size)),
    );
    await this.store.delete([originalKey(imageId), ...variants]);
  }

  private async original(imageId: string): Promise<Buffer> {
    const bytes = await this.store.get(originalKey(imageId));
    if (!bytes) throw new DomainError(ErrorCode.ImageNotFound, `no image ${imageId}`);
    return bytes;
  }

  // A variant is rendered the first time it is asked for, then kept. Requests
  // for it that arrive while it renders share that one render (the store is
  // read again inside the flight: one that finished just before is not
  // rendered twice); the decoding waits for a turn in the render pool.
  private async sized(
    imageId: string,
    mediaType: ImageMediaType,
    kind: ImageKind,
    size: string,
  ): Promise<Buffer> {
    const key = variantKey(imageId, kind, size);
    const kept = await this.store.get(key);
    if (kept) return kept;
    const box = variantBox(kind, size);
    if (!box) throw new DomainError(ErrorCode.NotFound, 'no such size');
    return this.pool.once(key, async () => {
      const stored = await this.store.get(key);
      if (stored) return stored;
      const bytes = await this.pool.run(async () =>
        renderVariant(await this.original(imageId), mediaType, box, this.config.IMAGE_MAX_PIXELS),
      );
      recordImageRender();
      await this.store.put(key, bytes, mediaType);
      return bytes;
    });
  }

  private async sendBytes(
    reply: FastifyReply,
    etag: string,
    mediaType: string,
    ifNoneMatch: string | undefined,
    load: () => Promise<Buffer>,
  ): Promise<void> {
    void reply.header('ETag', etag).header('Cache-Control', immutable);
    if (
      ifNoneMatch !== undefined &&
      ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
    ) {
      void reply.status(304).send();
      return;
    }
    const bytes = await load();
    void reply.header('Content-Type', mediaType).header('X-Content-Type-Options', 'nosniff').send(bytes);
  }
}

// JSON when the caller asks for it, or sent a token and names no image type;
// the image itself otherwise (what a browser's <img> asks for).
function wantsJson(accept: string | undefined, accountId: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  if (value.includes('application/json')) return true;
  return accountId !== undefined && !value.includes('image/');
}

function owner(accountId: string | undefined): string {
  if (accountId === undefined) {
    throw new DomainError(
      ErrorCode.AuthenticationFailed,
      'An image’s JSON needs a token with images:read; without one, ask for the image itself.',
    );
  }
  return accountId;
}

// A route the gateway lets in only with a token: forwarded without an account,
// it did not come through the gateway.
function signedIn(accountId: string | undefined): string {
  if (accountId === undefined) throw new DomainError(ErrorCode.AuthenticationFailed, 'A token is required.');
  return accountId;
}

// Base64 as Typeform takes it; a `data:…;base64,` prefix is tolerated. The
// size is checked on the text before anything is decoded.
function decodeBase64(text: string, maxBytes: number): Buffer {
  const comma = text.startsWith('data:') ? text.indexOf(',') : -1;
  const encoded = comma >= 0 ? text.slice(comma + 1) : text;
  if (Math.floor((encoded.length * 3) / 4) > maxBytes + 2) throw tooLarge(maxBytes);
  const bytes = Buffer.from(encoded, 'base64');
  const canonical = bytes.toString('base64');
  const unpadded = (value: string) =>
    value.endsWith('==') ? value.slice(0, -2) : value.endsWith('=') ? value.slice(0, -1) : value;
  if (bytes.length === 0 || unpadded(canonical) !== unpadded(encoded)) {
    const description = 'image must be base64 (the bytes of a PNG, JPEG or GIF image)';
    throw new DomainError(ErrorCode.ValidationError, `The request body is not valid: ${description}.`, [
      { code: 'INVALID_IMAGE', description, field: 'image', in: 'body' },
    ]);
  }
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}
