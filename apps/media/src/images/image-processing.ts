import type { ImageMediaType } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import type sharp from 'sharp';
import type { VariantBox } from './image-sizes';

// Reading and resizing images with sharp (libvips, shipped prebuilt in npm
// packages: nothing is downloaded at install or run time). Loaded on the first
// image the media app reads, not at start: libvips costs a process that never
// sees one about 20 MB. No cache of decoded images in memory, one libvips
// thread per operation, and at most IMAGE_RENDER_CONCURRENCY operations at
// once (render.pool.ts): memory stays bounded, and a variant is rendered once
// and then kept in the store.
let loaded: Promise<typeof sharp> | undefined;
function loadSharp(): Promise<typeof sharp> {
  loaded ??= import('sharp').then(({ default: library }) => {
    library.cache(false);
    library.concurrency(1);
    return library;
  });
  return loaded;
}

export interface ImageFacts {
  mediaType: ImageMediaType;
  width: number;
  height: number;
  hasAlpha: boolean;
  avgColor: string;
}

const mediaTypeByFormat: Record<string, ImageMediaType> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

const refused = (description: string) =>
  new DomainError(ErrorCode.ValidationError, description, [
    { code: 'INVALID_IMAGE', description, field: 'image', in: 'body' },
  ]);

// What an uploaded image is, from its own bytes (never from a name or a
// header). Its size is read from the header first, so an image that would
// decode to more than `maxPixels` is refused before it is decoded.
export async function inspectImage(bytes: Buffer, maxPixels: number): Promise<ImageFacts> {
  const library = await loadSharp();
  let metadata: sharp.Metadata;
  try {
    metadata = await library(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refused('the image is not a PNG, JPEG or GIF image that can be read');
  }
  const mediaType = Object.hasOwn(mediaTypeByFormat, metadata.format)
    ? mediaTypeByFormat[metadata.format]
    : undefined;
  if (!mediaType) throw refused('the image must be a PNG, JPEG or GIF image');
  const { width, height } = metadata;
  const frames = metadata.pages ?? 1;
  if (!width || !height) throw refused('the image has no size');
  if (width * height * frames > maxPixels) {
    throw refused(
      `the image is ${width}×${height} pixels${frames > 1 ? ` × ${frames} frames` : ''}: at most ${maxPixels} pixels`,
    );
  }
  let stats: sharp.Stats;
  try {
    stats = await decoder(library, bytes, maxPixels).stats();
  } catch {
    throw refused('the image is damaged and cannot be decoded');
  }
  const [r, g, b] =
    stats.channels.length >= 3 ? stats.channels : [stats.channels[0], stats.channels[0], stats.channels[0]];
  return {
    mediaType,
    width,
    height,
    hasAlpha: metadata.hasAlpha,
    avgColor: `#${[r, g, b].map((channel) => hex(channel.mean)).join('')}`,
  };
}

// One sized variant, in the original's format, turned upright (EXIF) and fitted in its box.
export async function renderVariant(
  bytes: Buffer,
  mediaType: ImageMediaType,
  box: VariantBox,
  maxPixels: number,
): Promise<Buffer> {
  // A `cover` box is a square crop: as large as the box, or as the image's shorter side.
  const { width, height } = await imageDimensions(bytes);
  const side = Math.min(box.width, width, height);
  const target =
    box.fit === 'cover' ? { width: side, height: side } : { width: box.width, height: box.height };
  const image = decoder(await loadSharp(), bytes, maxPixels)
    .rotate()
    .resize({ ...target, fit: box.fit, withoutEnlargement: true });
  if (mediaType === 'image/png') return image.png().toBuffer();
  if (mediaType === 'image/gif') return image.gif().toBuffer();
  return image.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
}

export async function imageDimensions(bytes: Buffer): Promise<{ width: number; height: number }> {
  const library = await loadSharp();
  const { width, height } = await library(bytes, { limitInputPixels: false }).metadata();
  return { width, height };
}

// The first frame only (an animated GIF's variant is its first frame), with
// libvips's own pixel limit as a second guard.
function decoder(library: typeof sharp, bytes: Buffer, maxPixels: number): sharp.Sharp {
  return library(bytes, { limitInputPixels: maxPixels, failOn: 'error', animated: false });
}

function hex(value: number): string {
  return Math.max(0, Math.min(255, Math.round(value)))
    .toString(16)
    .padStart(2, '0');
}
