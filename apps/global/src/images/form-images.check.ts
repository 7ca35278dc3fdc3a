import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import type { RegionBaseUrls } from '@formline/contracts';
import { DomainError, type ErrorDetail, ErrorCode } from '@formline/errors';
import { type FormDefinition, imageIdFromHref, imageReferences } from '@formline/form-definition';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { ImageRepository } from './image.repository';

// Every image a form shows must be one of its account's uploaded images,
// named by its address (attachments and the avatar must already exist in the
// account; Typeform refuses any other): image
// attachments of fields, choices, screens and layouts, and the
// conversational avatar. A form naming another account's image, a deleted
// one or an outside address is refused, never stored. A theme's background
// picture is held to the same rule (checkReferences).
@Injectable()
export class FormImagesCheck {
  private readonly baseUrls: RegionBaseUrls;

  constructor(
    private readonly images: ImageRepository,
    @Inject(GLOBAL_CONFIG) config: GlobalConfig,
  ) {
    this.baseUrls = regionBaseUrls(config);
  }

  async check(accountId: string, definition: FormDefinition): Promise<void> {
    await this.checkReferences(accountId, imageReferences(definition), 'the form');
  }

  // `used`: each image address with the path of the body field that names it.
  async checkReferences(
    accountId: string,
    used: readonly { path: string; href: string }[],
    what: string,
  ): Promise<void> {
    if (used.length === 0) return;
    const ids = used.map(({ href }) => imageIdFromHref(href, this.baseUrls));
    const owned = await this.images.ownedIds(
      accountId,
      ids.filter((id): id is string => id !== undefined),
    );
    const problems: ErrorDetail[] = used.flatMap(({ path, href }, i) => {
      const id = ids[i];
      if (id !== undefined && owned.has(id)) return [];
      const description =
        id === undefined
          ? `${href} is not an image of this service: upload it with POST /images and use its src`
          : `the image ${id} is not one of the account's images`;
      return [{ code: ErrorCode.ImageNotFound, description, field: path, in: 'body' }];
    });
    if (problems.length > 0) {
      throw new DomainError(
        ErrorCode.ValidationError,
        `${what} uses images the account does not have`,
        problems,
      );
    }
  }
}
