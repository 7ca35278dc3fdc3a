import type { ImageKind } from '@formline/contracts';

// The box each sized variant fits in. Never enlarged; `inside` keeps the whole
// image, `cover` fills the box and crops the overflow (Typeform's supersize
// and supermobile choice images are square crops, the `fit` ones are not).
export interface VariantBox {
  width: number;
  height: number;
  fit: 'inside' | 'cover';
}

export const variantBoxes: { [K in ImageKind]: Record<string, VariantBox> } = {
  image: {
    default: { width: 1680, height: 1680, fit: 'inside' },
    mobile: { width: 1024, height: 1024, fit: 'inside' },
    thumbnail: { width: 300, height: 300, fit: 'inside' },
  },
  background: {
    default: { width: 1920, height: 1920, fit: 'inside' },
    tablet: { width: 1280, height: 1280, fit: 'inside' },
    mobile: { width: 768, height: 768, fit: 'inside' },
    thumbnail: { width: 256, height: 256, fit: 'inside' },
  },
  choice: {
    default: { width: 800, height: 800, fit: 'inside' },
    thumbnail: { width: 256, height: 256, fit: 'inside' },
    supersize: { width: 1200, height: 1200, fit: 'cover' },
    supermobile: { width: 600, height: 600, fit: 'cover' },
    supersizefit: { width: 1200, height: 1200, fit: 'inside' },
    supermobilefit: { width: 600, height: 600, fit: 'inside' },
  },
};

export function variantBox(kind: string, size: string): VariantBox | undefined {
  if (!Object.hasOwn(variantBoxes, kind)) return undefined;
  const boxes = variantBoxes[kind as ImageKind];
  return Object.hasOwn(boxes, size) ? boxes[size] : undefined;
}
