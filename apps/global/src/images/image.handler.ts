import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  deleteImage,
  getImage,
  listImages,
  locateImage,
  recordImage,
  type RpcReply,
  type RpcRequest,
} from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { ImageService } from './image.service';

@Controller()
export class ImageHandler {
  constructor(private readonly images: ImageService) {}

  @MessagePattern(recordImage.subject)
  record(@Payload(new ContractPipe(recordImage.request)) request: RpcRequest<typeof recordImage>) {
    return this.images.record(request);
  }

  @MessagePattern(listImages.subject)
  list(@Payload(new ContractPipe(listImages.request)) request: RpcRequest<typeof listImages>) {
    return this.images.list(request.accountId);
  }

  @MessagePattern(getImage.subject)
  get(@Payload(new ContractPipe(getImage.request)) request: RpcRequest<typeof getImage>) {
    return this.images.get(request.accountId, request.imageId);
  }

  @MessagePattern(locateImage.subject)
  locate(@Payload(new ContractPipe(locateImage.request)) request: RpcRequest<typeof locateImage>) {
    return this.images.locate(request.imageId);
  }

  @MessagePattern(deleteImage.subject)
  async delete(
    @Payload(new ContractPipe(deleteImage.request)) request: RpcRequest<typeof deleteImage>,
  ): Promise<RpcReply<typeof deleteImage>> {
    await this.images.delete(request.accountId, request.imageId);
    return { deleted: true };
  }
}
