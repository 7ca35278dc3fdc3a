import { Injectable } from '@nestjs/common';
import { WebhooksPrismaClient, type WebhooksDb } from '@formline/db';

export type WebhookRow = WebhooksDb.Webhook;

export interface WebhookKey {
  accountId: string;
  formId: string;
  tag: string;
}

export interface NewWebhook {
  id: string;
  accountId: string;
  formId: string;
  tag: string;
  url: string;
  enabled: boolean;
  verifySsl: boolean;
  secretSealed: string | null;
  eventTypes: WebhooksDb.Prisma.InputJsonValue;
}

export type WebhookChange = Partial<Pick<WebhookRow, 'url' | 'enabled' | 'verifySsl' | 'secretSealed'>> & {
  eventTypes?: WebhooksDb.Prisma.InputJsonValue;
  disabledReason?: null;
};

// Webhook records (table `webhooks`) of this region: the webhooks API's
// reads and writes, and the planner's read of the webhooks that want an
// event. Delivery rows belong to DeliveryRepository.
@Injectable()
export class WebhookRepository {
  constructor(private readonly db: WebhooksPrismaClient) {}

  // A form's webhook by tag, whichever account holds it: the caller checks the account.
  findByTag(formId: string, tag: string): Promise<WebhookRow | null> {
    return this.db.webhook.findUnique({ where: { formId_tag: { formId, tag } } });
  }

  create(webhook: NewWebhook): Promise<WebhookRow> {
    return this.db.webhook.create({ data: webhook });
  }

  update(id: string, change: WebhookChange): Promise<WebhookRow> {
    return this.db.webhook.update({ where: { id }, data: change });
  }

  listOfForm(accountId: string, formId: string): Promise<WebhookRow[]> {
    return this.db.webhook.findMany({ where: { accountId, formId }, orderBy: { createdAt: 'asc' } });
  }

  // Whether a webhook was deleted: false when the account has none by that key.
  async delete(key: WebhookKey): Promise<boolean> {
    const { count } = await this.db.webhook.deleteMany({
      where: { accountId: key.accountId, formId: key.formId, tag: key.tag },
    });
    return count > 0;
  }

  // The enabled webhooks of these forms, with what planning needs of them.
  enabledOfForms(formIds: readonly string[]) {
    return this.db.webhook.findMany({
      where: { formId: { in: [...formIds] }, enabled: true },
      select: { id: true, formId: true, accountId: true, eventTypes: true },
    });
  }
}
