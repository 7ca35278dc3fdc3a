import type { ImageKind } from '@formline/contracts';

// The image store (IMAGE_STORAGE) holds, per image, the bytes as uploaded and
// each sized variant once someone asked for it.
export const IMAGE_STORE = Symbol('IMAGE_STORE');

export const originalKey = (imageId: string) => `images/${imageId}/original`;
export const variantKey = (imageId: string, kind: ImageKind, size: string) =>
  `images/${imageId}/${kind}-${size}`;
