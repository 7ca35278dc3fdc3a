import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import type {
  ImageResource,
  RegionBaseUrls,
  RpcReply,
  RpcRequest,
  locateImage,
  recordImage,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { imageSrc } from './image-href';
import { ImageRepository, type StoredImage } from './image.repository';

// The records of the Images API. The gateway stored the bytes before asking
// to record them, and removes them after a delete here.
@Injectable()
export class ImageService {
  private readonly baseUrls: RegionBaseUrls;

  constructor(
    private readonly images: ImageRepository,
    @Inject(GLOBAL_CONFIG) config: GlobalConfig,
  ) {
    this.baseUrls = regionBaseUrls(config);
  }

  async record(request: RpcRequest<typeof recordImage>): Promise<ImageResource> {
    return this.present(await this.images.create(request.accountId, request.image));
  }

  async list(accountId: string): Promise<ImageResource[]> {
    return (await this.images.list(accountId)).map((image) => this.present(image));
  }

  async get(accountId: string, imageId: string): Promise<ImageResource> {
    const image = await this.images.findOwned(accountId, imageId);
    if (!image) throw imageNotFound(imageId);
    return this.present(image);
  }

  async locate(imageId: string): Promise<RpcReply<typeof locateImage>> {
    const image = await this.images.findAnywhere(imageId);
    if (!image) throw imageNotFound(imageId);
    return { id: image.id, mediaType: image.mediaType, width: image.width, height: image.height };
  }

  async delete(accountId: string, imageId: string): Promise<void> {
    if (!(await this.images.delete(accountId, imageId))) throw imageNotFound(imageId);
  }

  private present(image: StoredImage): ImageResource {
    return {
      id: image.id,
      src: imageSrc(this.baseUrls, image.id),
      file_name: image.fileName,
      width: image.width,
      height: image.height,
      media_type: image.mediaType,
      has_alpha: image.hasAlpha,
      avg_color: image.avgColor,
    };
  }
}

function imageNotFound(imageId: string): DomainError {
  return new DomainError(ErrorCode.ImageNotFound, `no image ${imageId} in this account`);
}
