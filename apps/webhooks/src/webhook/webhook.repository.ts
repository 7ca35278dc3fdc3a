import { Injectable } from '@nestjs/common';
import { WebhooksPrismaClient, webhooksKeyedPool, type WebhooksDb } from '@formline/db';
import type pg from 'pg';

export type WebhookRow = WebhooksDb.Webhook;

export interface WebhookKey {
  accountId: string;
  formId: string;
  tag: string;
}

// What planning needs of a webhook.
export interface PlanningWebhook {
  id: string;
  formId: string;
  accountId: string;
  /** The stored subscription (JSON, parsed), as the mapper's eventTypesOf reads it. */
  eventTypes: unknown;
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
// The enabled webhooks of an array of forms ($1), for planning (event_types is
// jsonb: pg answers it parsed).
export const enabledOfFormsSql = `SELECT id, form_id AS "formId", account_id AS "accountId", event_types AS "eventTypes"
  FROM webhooks WHERE form_id = ANY($1::text[]) AND enabled`;

@Injectable()
export class WebhookRepository {
  // The planner's read, on every batch of events, skips Prisma: plain SQL on
  // the keyed statements' pool, prepared once per connection.
  private readonly sql: pg.Pool;

  constructor(private readonly db: WebhooksPrismaClient) {
    this.sql = webhooksKeyedPool(db);
  }

  // A form's webhook by tag, whichever account holds it: the caller checks the account.
  findByTag(formId: string, tag: string): Promise<WebhookRow | null> {
    return this.db.webhook.findUnique({ where: { formId_tag: { formId, tag } } });
  }

  create(webhook: NewWebhook): Promise<WebhookRow> {
    return this.db.webhook.create({ data: webhook });
  }

  // Creates the webhook unless its form already holds `maxOfForm` (0: no
  // cap) or its tag was taken meanwhile (the caller then changes that one).
  // The form's creations take turns on a transaction-scoped lock named after
  // the form, so parallel creations can neither pass the cap together nor
  // meet on the tag's unique key.
  createWithinCap(webhook: NewWebhook, maxOfForm: number): Promise<WebhookRow | 'tag-taken' | 'form-full'> {
    return this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhooks-of-form'), hashtext(${webhook.formId}))`;
      const taken = await tx.webhook.findUnique({
        where: { formId_tag: { formId: webhook.formId, tag: webhook.tag } },
        select: { id: true },
      });
      if (taken) return 'tag-taken';
      if (maxOfForm > 0 && (await tx.webhook.count({ where: { formId: webhook.formId } })) >= maxOfForm) {
        return 'form-full';
      }
      return tx.webhook.create({ data: webhook });
    });
  }

  // The webhook changed; undefined when it was deleted meanwhile, or when
  // its subscription is no longer `seenEventTypes` (a change merged into the
  // subscription as read is then merged again, never over another's).
  async update(
    id: string,
    change: WebhookChange,
    seenEventTypes?: WebhooksDb.Prisma.InputJsonValue,
  ): Promise<WebhookRow | undefined> {
    const [row] = await this.db.webhook.updateManyAndReturn({
      where: { id, ...(seenEventTypes === undefined ? {} : { eventTypes: { equals: seenEventTypes } }) },
      data: change,
    });
    return row;
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

  // The enabled webhooks of these forms, with what planning needs of them
  // (event_types is jsonb: pg answers it parsed).
  async enabledOfForms(formIds: readonly string[]): Promise<PlanningWebhook[]> {
    if (formIds.length === 0) return [];
    const { rows } = await this.sql.query<PlanningWebhook>({
      name: 'webhooks-enabled-of-forms',
      text: enabledOfFormsSql,
      values: [[...formIds]],
    });
    return rows;
  }
}
