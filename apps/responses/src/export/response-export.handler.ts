import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { exportResponsesPage, type RpcReply, type RpcRequest } from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { ResponseExportService } from './response-export.service';

// Exports are pulled by the gateway a bounded page at a time.
@Controller()
export class ResponseExportHandler {
  constructor(private readonly exports: ResponseExportService) {}

  @MessagePattern(exportResponsesPage.subject)
  page(
    @Payload(new ContractPipe(exportResponsesPage.request)) request: RpcRequest<typeof exportResponsesPage>,
  ): Promise<RpcReply<typeof exportResponsesPage>> {
    return this.exports.page(request);
  }
}
