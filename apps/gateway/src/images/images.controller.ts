import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  imageResourceSchema,
  imageSizes,
  imageUploadSchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  OptionalPrincipal,
  ScopeIfAuthenticated,
  Principal,
  RequiredScope,
  ApiOperation,
} from '@formline/http-edge';
import { MediaAppClient } from '../media-app/media-app.client';

const bytesNote =
  'With `Accept: application/json` (and a token with `images:read`) the answer is the image’s JSON; ' +
  'otherwise the image itself, to anyone (forms show images to their respondents), with `ETag` and ' +
  '`Cache-Control: immutable`.';
const notFound = [ErrorCode.ImageNotFound];

// Typeform's Images API: declared, documented and let in here, served by the
// region's media app (the image store, the render pool, the fetch by url),
// to which each request is forwarded with the caller's account. The path
// parameters are read (not used) so that the API document describes them.
@Controller('images')
export class ImagesController {
  constructor(private readonly media: MediaAppClient) {}

  @Post()
  @HttpCode(201)
  @RequiredScope('images:write')
  @ApiOperation({
    summary: 'Upload an image',
    description:
      'The image as base64 in `image`, or a public `url` to fetch it from; PNG, JPEG or GIF, ' +
      'at most `IMAGE_MAX_BYTES` bytes and `IMAGE_MAX_PIXELS` pixels.',
    body: imageUploadSchema,
    responses: { 201: { description: 'The new image.', body: imageResourceSchema } },
    errors: [ErrorCode.PayloadTooLarge],
  })
  upload(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Principal() principal: AccessTokenPrincipal,
    @Body() body: unknown,
  ): Promise<void> {
    return this.media.forward(request, reply, principal, body);
  }

  @Get()
  @RequiredScope('images:read')
  @ApiOperation({
    summary: 'List images',
    description: 'The account’s images, newest first (at most 2000).',
    responses: { 200: { description: 'The images.', body: z.array(imageResourceSchema) } },
  })
  list(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Principal() principal: AccessTokenPrincipal,
  ): Promise<void> {
    return this.media.forward(request, reply, principal);
  }

  @Get(':image_id')
  @ScopeIfAuthenticated('images:read')
  @ApiOperation({
    summary: 'Retrieve an image',
    description: bytesNote,
    responses: {
      200: {
        description: 'The image’s JSON, or the image.',
        body: imageResourceSchema,
      },
    },
    errors: notFound,
  })
  retrieve(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @OptionalPrincipal() principal: AccessTokenPrincipal | undefined,
    @Param('image_id') _imageId: string,
  ): Promise<void> {
    return this.media.forward(request, reply, principal);
  }

  @Get(':image_id/:kind/:size')
  @ScopeIfAuthenticated('images:read')
  @ApiOperation({
    summary: 'Retrieve an image in a size',
    description:
      `Kinds and sizes: ${Object.entries(imageSizes)
        .map(([kind, sizes]) => `\`${kind}\`: ${sizes.join(', ')}`)
        .join('; ')}. ` + bytesNote,
    responses: {
      200: {
        description: 'The sized image’s JSON, or the sized image.',
        body: imageResourceSchema,
      },
    },
    errors: notFound,
  })
  variant(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @OptionalPrincipal() principal: AccessTokenPrincipal | undefined,
    @Param('image_id') _imageId: string,
    @Param('kind') _kind: string,
    @Param('size') _size: string,
  ): Promise<void> {
    return this.media.forward(request, reply, principal);
  }

  @Delete(':image_id')
  @HttpCode(204)
  @RequiredScope('images:write')
  @ApiOperation({
    summary: 'Delete an image',
    responses: { 204: { description: 'Deleted.', body: null } },
    errors: notFound,
  })
  delete(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Principal() principal: AccessTokenPrincipal,
    @Param('image_id') _imageId: string,
  ): Promise<void> {
    return this.media.forward(request, reply, principal);
  }
}
