import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  deleteWebhook,
  forgetDeliveries,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliverDelivery,
  redeliverFailedDeliveries,
  type RpcReply,
  sendTestDelivery,
  type RpcRequest,
  upsertWebhook,
} from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { DeliveryLogService } from './delivery/delivery-log.service';
import { WebhookService } from './webhook/webhook.service';

@Controller()
export class WebhookHandler {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly deliveries: DeliveryLogService,
  ) {}

  @MessagePattern(upsertWebhook.subject)
  upsert(@Payload(new ContractPipe(upsertWebhook.request)) request: RpcRequest<typeof upsertWebhook>) {
    return this.webhooks.upsert(request);
  }

  @MessagePattern(getWebhook.subject)
  get(@Payload(new ContractPipe(getWebhook.request)) request: RpcRequest<typeof getWebhook>) {
    return this.webhooks.get(request);
  }

  @MessagePattern(listWebhooks.subject)
  async list(
    @Payload(new ContractPipe(listWebhooks.request)) request: RpcRequest<typeof listWebhooks>,
  ): Promise<RpcReply<typeof listWebhooks>> {
    return { items: await this.webhooks.list(request.accountId, request.formId) };
  }

  @MessagePattern(deleteWebhook.subject)
  async delete(
    @Payload(new ContractPipe(deleteWebhook.request)) request: RpcRequest<typeof deleteWebhook>,
  ): Promise<RpcReply<typeof deleteWebhook>> {
    await this.webhooks.delete(request);
    return { deleted: true };
  }

  @MessagePattern(listDeliveries.subject)
  async deliveryLog(
    @Payload(new ContractPipe(listDeliveries.request)) request: RpcRequest<typeof listDeliveries>,
  ): Promise<RpcReply<typeof listDeliveries>> {
    return {
      items: await this.deliveries.list(request, {
        pageSize: request.pageSize,
        before: request.before,
        after: request.after,
      }),
    };
  }

  @MessagePattern(redeliverDelivery.subject)
  redeliver(
    @Payload(new ContractPipe(redeliverDelivery.request)) request: RpcRequest<typeof redeliverDelivery>,
  ) {
    return this.deliveries.redeliver(request, request.deliveryId);
  }

  @MessagePattern(redeliverFailedDeliveries.subject)
  redeliverFailed(
    @Payload(new ContractPipe(redeliverFailedDeliveries.request))
    request: RpcRequest<typeof redeliverFailedDeliveries>,
  ): Promise<RpcReply<typeof redeliverFailedDeliveries>> {
    const window = { since: new Date(request.since), until: new Date(request.until) };
    return this.deliveries.redeliverFailed(request, window, request.limit);
  }

  @MessagePattern(sendTestDelivery.subject)
  sendTest(
    @Payload(new ContractPipe(sendTestDelivery.request)) request: RpcRequest<typeof sendTestDelivery>,
  ) {
    return this.deliveries.sendTest(request);
  }

  @MessagePattern(forgetDeliveries.subject)
  async forget(
    @Payload(new ContractPipe(forgetDeliveries.request)) request: RpcRequest<typeof forgetDeliveries>,
  ): Promise<RpcReply<typeof forgetDeliveries>> {
    return { deleted: await this.deliveries.forgetResponses(request.accountId, request.responseTokens) };
  }
}
