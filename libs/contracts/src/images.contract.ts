import { inputLimits } from '@formline/input';
import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Typeform's Images API. The gateway handles the bytes (they go to the image
// store, never over NATS); the global service keeps each image's record in the
// global database, scoped by account.

export const imageMediaTypes = ['image/gif', 'image/jpeg', 'image/png'] as const;
export type ImageMediaType = (typeof imageMediaTypes)[number];

// The sized variants Typeform serves, by kind (`/images/{id}/{kind}/{size}`),
// the same lists the official SDK accepts.
export const imageSizes = {
  image: ['default', 'thumbnail', 'mobile'],
  background: ['default', 'thumbnail', 'mobile', 'tablet'],
  choice: ['default', 'thumbnail', 'supersize', 'supermobile', 'supersizefit', 'supermobilefit'],
} as const;
export type ImageKind = keyof typeof imageSizes;

// POST /images: the image as base64 (no `data:` prefix, as Typeform asks) or
// a URL to fetch it from, and its file name.
export const imageUploadSchema = z
  .strictObject({
    image: z
      .string()
      .max(16 * 1024 * 1024)
      .optional(),
    url: z
      .url({ protocol: /^https?$/ })
      .max(inputLimits.url)
      .optional(),
    file_name: z.string().trim().min(1).max(inputLimits.name),
  })
  .refine((body) => (body.image === undefined) !== (body.url === undefined), {
    error: 'send the image as `image` (base64) or as `url`, one of them',
  });
export type ImageUpload = z.output<typeof imageUploadSchema>;

export const imageResourceSchema = z.object({
  id: z.string(),
  src: z.string(),
  file_name: z.string(),
  width: z.int(),
  height: z.int(),
  media_type: z.enum(imageMediaTypes),
  has_alpha: z.boolean(),
  avg_color: z.string(),
});
export type ImageResource = z.output<typeof imageResourceSchema>;

const imageId = z.string().min(1).max(64);
const owned = { accountId: z.string().min(1) };

export const recordImage = defineRpc({
  subject: Subjects.formsImageRecord,
  request: z.object({
    ...owned,
    image: z.object({
      id: imageId,
      fileName: z.string().min(1).max(inputLimits.name),
      mediaType: z.enum(imageMediaTypes),
      width: z.int().positive(),
      height: z.int().positive(),
      hasAlpha: z.boolean(),
      avgColor: z.string().max(7),
      byteSize: z.int().positive(),
    }),
  }),
  reply: imageResourceSchema,
});

// The account's images, newest first (at most `imageListLimit`, so the reply fits one message).
export const imageListLimit = 2_000;
export const listImages = defineRpc({
  subject: Subjects.formsImageList,
  request: z.object(owned),
  reply: z.array(imageResourceSchema),
});

export const getImage = defineRpc({
  subject: Subjects.formsImageGet,
  request: z.object({ ...owned, imageId }),
  reply: imageResourceSchema,
});

// What serving an image's bytes needs, by id alone: images are shown to
// anyone who opens a form that uses them, as Typeform's image addresses are.
export const locateImage = defineRpc({
  subject: Subjects.formsImageLocate,
  request: z.object({ imageId }),
  reply: z.object({ id: z.string(), mediaType: z.enum(imageMediaTypes), width: z.int(), height: z.int() }),
});

export const deleteImage = defineRpc({
  subject: Subjects.formsImageDelete,
  request: z.object({ ...owned, imageId }),
  reply: z.object({ deleted: z.literal(true) }),
});
