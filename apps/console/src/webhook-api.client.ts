import type { DeliveryResource, WebhookInput, WebhookResource } from '@formline/contracts';
import type { ApiClient } from './api.client';
import type { DeliveryPage } from './delivery-pages.route';
import type { ReplayWindow } from './replay-window.mapper';

// The Webhooks API of one form, as the console calls it: each path built in
// one place, with its ids escaped (a tag may hold "." and an id anything the
// address bar held).
export class WebhookApiClient {
  constructor(
    private readonly api: ApiClient,
    readonly formId: string,
  ) {}

  private path(tag?: string, rest = ''): string {
    const webhooks = `/forms/${encodeURIComponent(this.formId)}/webhooks`;
    return tag === undefined ? webhooks : `${webhooks}/${encodeURIComponent(tag)}${rest}`;
  }

  async list(signal?: AbortSignal): Promise<WebhookResource[]> {
    return (await this.api.get<{ items: WebhookResource[] }>(this.path(), {}, signal)).items;
  }

  get(tag: string, signal?: AbortSignal): Promise<WebhookResource> {
    return this.api.get<WebhookResource>(this.path(tag), {}, signal);
  }

  save(tag: string, body: WebhookInput): Promise<WebhookResource> {
    return this.api.change<WebhookResource>('PUT', this.path(tag), body);
  }

  async delete(tag: string): Promise<void> {
    await this.api.change<undefined>('DELETE', this.path(tag));
  }

  /** Newest first, `pageSize` at most, before or after a delivery id (the API's cursor). */
  async deliveries(
    tag: string,
    page: DeliveryPage,
    pageSize: number,
    signal?: AbortSignal,
  ): Promise<DeliveryResource[]> {
    const query = { page_size: pageSize, before: page.before, after: page.after };
    return (await this.api.get<{ items: DeliveryResource[] }>(this.path(tag, '/deliveries'), query, signal))
      .items;
  }

  redeliver(tag: string, deliveryId: string): Promise<DeliveryResource> {
    return this.api.change<DeliveryResource>(
      'POST',
      this.path(tag, `/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
    );
  }

  /** Every failed delivery created in the window, sent again (an extension of the API). */
  redeliverFailed(tag: string, window: ReplayWindow): Promise<{ redelivered: number; more: boolean }> {
    return this.api.change('POST', this.path(tag, '/deliveries/redeliver-failed'), window);
  }

  /** One test event, sent once even to a webhook turned off (an extension of the API). */
  sendTest(tag: string): Promise<DeliveryResource> {
    return this.api.change<DeliveryResource>('POST', this.path(tag, '/test'));
  }
}
