import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  authorizeForm,
  createForm,
  deleteForm,
  getForm,
  getFormSnapshot,
  locateForm,
  listForms,
  patchForm,
  replaceForm,
  type RpcReply,
  type RpcRequest,
} from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { FormService } from './form.service';

// The forms Create API over NATS; the gateway maps HTTP onto these.
@Controller()
export class FormHandler {
  constructor(private readonly forms: FormService) {}

  @MessagePattern(createForm.subject)
  create(@Payload(new ContractPipe(createForm.request)) request: RpcRequest<typeof createForm>) {
    return this.forms.create(request.accountId, request.definition);
  }

  @MessagePattern(listForms.subject)
  list(@Payload(new ContractPipe(listForms.request)) request: RpcRequest<typeof listForms>) {
    const { accountId, ...query } = request;
    return this.forms.list(accountId, query);
  }

  @MessagePattern(getForm.subject)
  get(@Payload(new ContractPipe(getForm.request)) request: RpcRequest<typeof getForm>) {
    return this.forms.get(request.accountId, request.formId);
  }

  @MessagePattern(replaceForm.subject)
  replace(@Payload(new ContractPipe(replaceForm.request)) request: RpcRequest<typeof replaceForm>) {
    return this.forms.replace(request.accountId, request.formId, request.definition, request.expectedVersion);
  }

  @MessagePattern(patchForm.subject)
  async patch(
    @Payload(new ContractPipe(patchForm.request)) request: RpcRequest<typeof patchForm>,
  ): Promise<RpcReply<typeof patchForm>> {
    const version = await this.forms.patch(
      request.accountId,
      request.formId,
      request.operations,
      request.expectedVersion,
    );
    return { version };
  }

  @MessagePattern(authorizeForm.subject)
  authorize(@Payload(new ContractPipe(authorizeForm.request)) request: RpcRequest<typeof authorizeForm>) {
    return this.forms.authorize(request.accountId, request.formId, request.need);
  }

  @MessagePattern(locateForm.subject)
  locate(@Payload(new ContractPipe(locateForm.request)) request: RpcRequest<typeof locateForm>) {
    return this.forms.locate(request.formId);
  }

  @MessagePattern(getFormSnapshot.subject)
  snapshot(@Payload(new ContractPipe(getFormSnapshot.request)) request: RpcRequest<typeof getFormSnapshot>) {
    return this.forms.snapshot(request.formId);
  }

  @MessagePattern(deleteForm.subject)
  async delete(
    @Payload(new ContractPipe(deleteForm.request)) request: RpcRequest<typeof deleteForm>,
  ): Promise<RpcReply<typeof deleteForm>> {
    await this.forms.delete(request.accountId, request.formId);
    return { deleted: true };
  }
}
