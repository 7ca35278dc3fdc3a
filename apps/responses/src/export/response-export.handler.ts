import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { exportResponsesPage, type RpcReply, type RpcRequest } from '@formline/contracts';
import { ContractPipe, SizedReply } from '@formline/messaging';
import { ResponseExportService } from './response-export.service';

// Exports are pulled by the gateway a bounded page at a time (each page
// bounds its bytes as it is made: no second measure of the reply).
@Controller()
export class ResponseExportHandler {
  constructor(private readonly exports: ResponseExportService) {}

  @MessagePattern(exportResponsesPage.subject)
  @SizedReply()
  page(
    @Payload(new ContractPipe(exportResponsesPage.request)) request: RpcRequest<typeof exportResponsesPage>,
  ): Promise<RpcReply<typeof exportResponsesPage>> {
    return this.exports.page(request);
  }
}
