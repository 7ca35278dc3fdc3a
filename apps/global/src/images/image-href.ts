import type { RegionBaseUrls } from '@formline/contracts';

// An image's address as the Images API gives it (`src`): on the default
// region's base address (images are shared by both regions). Reading one
// back is `imageIdFromHref` in libs/form-definition.
export function imageSrc(baseUrls: RegionBaseUrls, imageId: string): string {
  return `${baseUrls.us}/images/${imageId}`;
}
