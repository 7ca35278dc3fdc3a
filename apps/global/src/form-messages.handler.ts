import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { getFormMessages, replaceFormMessages, type RpcReply, type RpcRequest } from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { FormService } from './form.service';

// Form messages over NATS (GET/PUT /forms/{form_id}/messages at the gateway).
@Controller()
export class FormMessagesHandler {
  constructor(private readonly forms: FormService) {}

  @MessagePattern(getFormMessages.subject)
  get(@Payload(new ContractPipe(getFormMessages.request)) request: RpcRequest<typeof getFormMessages>) {
    return this.forms.messages(request.accountId, request.formId);
  }

  @MessagePattern(replaceFormMessages.subject)
  async replace(
    @Payload(new ContractPipe(replaceFormMessages.request)) request: RpcRequest<typeof replaceFormMessages>,
  ): Promise<RpcReply<typeof replaceFormMessages>> {
    await this.forms.replaceMessages(request.accountId, request.formId, request.messages);
    return { replaced: true };
  }
}
