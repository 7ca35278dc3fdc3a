import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '@formline/app-config';
import type { RpcRequest, upsertWebhook, WebhookResource } from '@formline/contracts';
import { capReachedError, concurrentChangeError, DomainError, ErrorCode } from '@formline/errors';
import { newPublicId } from '@formline/ids';
import { OutboundUrlPolicy, UrlRefused } from '@formline/outbound-url';
import { SecretBox } from '@formline/webhook-delivery';
import type { WebhooksDb } from '@formline/db';
import { eventTypesOf, toWebhookResource } from './webhook.mapper';
import { type WebhookKey, WebhookRepository } from './webhook.repository';

// Webhook records of this region. The gateway has already checked that the
// form belongs to the caller's account and lives in this region; every query
// is scoped by that account nonetheless.
@Injectable()
export class WebhookService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly secrets: SecretBox,
    private readonly urls: OutboundUrlPolicy,
    @Inject(WEBHOOKS_CONFIG) private readonly config: Pick<WebhooksConfig, 'WEBHOOKS_PER_FORM'>,
  ) {}

  async upsert(
    request: RpcRequest<typeof upsertWebhook>,
  ): Promise<{ webhook: WebhookResource; created: boolean }> {
    if (request.input.url !== undefined) await this.checkUrl(request.input.url);
    // A creation that finds the tag taken meanwhile (a parallel PUT of the
    // same tag) changes that webhook instead, as if it had come second; a
    // change that finds the webhook deleted meanwhile creates it again, and
    // one whose subscription changed meanwhile merges into it again.
    return (await this.write(request, true)) ?? (await this.write(request, false))!;
  }

  // Creates or changes the webhook; undefined when another call has just
  // taken the tag it would create, deleted the one it would change, or
  // changed the subscription it would merge into (only while `mayRetry`: the
  // next try sees what that call did; a second loss is a 409).
  private async write(
    request: RpcRequest<typeof upsertWebhook>,
    mayRetry: boolean,
  ): Promise<{ webhook: WebhookResource; created: boolean } | undefined> {
    const { accountId, formId, tag, input } = request;
    const existing = await this.webhooks.findByTag(formId, tag);
    if (existing && existing.accountId !== accountId) throw notFound(formId, tag);
    const secretSealed =
      input.secret === undefined ? undefined : input.secret === null ? null : this.secrets.seal(input.secret);
    if (!existing) {
      if (input.url === undefined) {
        throw new DomainError(ErrorCode.ValidationError, 'A new webhook needs a url.', [
          { code: 'REQUIRED', description: 'url is required to create a webhook', field: 'url', in: 'body' },
        ]);
      }
      const maxOfForm = this.config.WEBHOOKS_PER_FORM;
      const row = await this.webhooks.createWithinCap(
        {
          id: newPublicId(),
          accountId,
          formId,
          tag,
          url: input.url,
          enabled: input.enabled ?? false,
          verifySsl: input.verify_ssl ?? true,
          secretSealed: secretSealed ?? null,
          // Typeform's default is completed submissions only; a body that names
          // event types subscribes to exactly those it sets true.
          eventTypes: eventTypesOf(input.event_types ?? { form_response: true }),
        },
        maxOfForm,
      );
      if (row === 'tag-taken') {
        if (mayRetry) return undefined;
        throw concurrentChangeError();
      }
      // 409, not 429: waiting does not help, deleting a webhook does.
      if (row === 'form-full') throw tooManyWebhooks(maxOfForm);
      return { webhook: toWebhookResource(row, this.secrets), created: true };
    }
    // Turning a webhook on again, or pointing it elsewhere, forgets why it was turned off.
    const revived = input.enabled === true || (input.url !== undefined && input.url !== existing.url);
    const row = await this.webhooks.update(
      existing.id,
      {
        url: input.url,
        enabled: input.enabled,
        verifySsl: input.verify_ssl,
        secretSealed,
        // A change names only the kinds it changes; the others stay as they were.
        eventTypes:
          input.event_types === undefined
            ? undefined
            : { ...eventTypesOf(existing.eventTypes), ...input.event_types },
        disabledReason: revived ? null : undefined,
      },
      input.event_types === undefined ? undefined : (existing.eventTypes as WebhooksDb.Prisma.InputJsonValue),
    );
    if (!row) {
      if (mayRetry) return undefined;
      throw concurrentChangeError();
    }
    return { webhook: toWebhookResource(row, this.secrets), created: false };
  }

  async get(key: WebhookKey): Promise<WebhookResource> {
    return toWebhookResource(await this.find(key), this.secrets);
  }

  async list(accountId: string, formId: string): Promise<WebhookResource[]> {
    const rows = await this.webhooks.listOfForm(accountId, formId);
    return rows.map((row) => toWebhookResource(row, this.secrets));
  }

  async delete(key: WebhookKey): Promise<void> {
    if (!(await this.webhooks.delete(key))) throw notFound(key.formId, key.tag);
  }

  async find(key: WebhookKey) {
    const row = await this.webhooks.findByTag(key.formId, key.tag);
    if (!row || row.accountId !== key.accountId) throw notFound(key.formId, key.tag);
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await this.urls.check(url, { acceptUnresolved: true });
    } catch (error) {
      if (!(error instanceof UrlRefused)) throw error;
      throw new DomainError(ErrorCode.ValidationError, `The webhook url is refused: ${error.message}.`, [
        { code: 'URL_REFUSED', description: error.message, field: 'url', in: 'body' },
      ]);
    }
  }
}

function tooManyWebhooks(maxOfForm: number): DomainError {
  return capReachedError(
    'TOO_MANY_WEBHOOKS',
    `This form holds ${maxOfForm} webhooks, the most it may; delete one to create another.`,
    `at most ${maxOfForm} webhooks a form`,
  );
}

export function notFound(formId: string, tag: string): DomainError {
  return new DomainError(ErrorCode.NotFound, `Non existing webhook with tag ${tag} on form ${formId}.`);
}
