import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import {
  type FormLocation,
  formMessagesSchema,
  type FormSummary,
  type Page,
  type VersionedForm,
} from '@formline/contracts';
import { DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import { type FormDefinition, parseFormDefinition } from '@formline/form-definition';
import { newPublicId } from '@formline/ids';
import { ChangeAnnouncer } from './change-announcer';
import { FORMS_CONFIG, type FormsConfig } from './forms.config';
import { editableForm, presentForm, presentFormSummary } from './form.presenter';
import { type FormListQuery, FormRepository, type StoredForm } from './form.repository';
import { applyPatch, parsePatchOperations } from './json-patch';
import { FormImagesCheck } from './images/form-images.check';
import { ResourceLinks } from './resource-links';
import { WorkspaceRepository } from './workspace.repository';

// The properties PATCH may change, as Typeform allows.
const patchableRoots = ['title', 'settings', 'theme', 'workspace', 'cui_settings'];

// Creates, reads, replaces, patches and deletes forms. A write reads the form
// under its row lock, so concurrent writers queue and none is lost; with an
// expected version (If-Match) a write on a form changed since is refused (412).
@Injectable()
export class FormService {
  private readonly links: ResourceLinks;

  constructor(
    private readonly forms: FormRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly announcer: ChangeAnnouncer,
    private readonly formImages: FormImagesCheck,
    @Inject(FORMS_CONFIG) config: FormsConfig,
  ) {
    this.links = new ResourceLinks(regionBaseUrls(config));
  }

  async create(accountId: string, body: unknown): Promise<VersionedForm> {
    const { definition, workspaceHref } = parseFormDefinition(body);
    await this.formImages.check(accountId, definition);
    const workspaceId = await this.resolveWorkspace(accountId, workspaceHref);
    const form = await this.forms.create({ id: newPublicId(), accountId, workspaceId, definition });
    return this.present(accountId, form);
  }

  async get(accountId: string, formId: string): Promise<VersionedForm> {
    return this.present(accountId, await this.owned(accountId, formId));
  }

  async list(accountId: string, query: FormListQuery): Promise<Page<FormSummary>> {
    const [{ total, forms }, region] = await Promise.all([
      this.forms.list(accountId, query),
      this.forms.accountRegion(accountId),
    ]);
    return {
      total_items: total,
      page_count: Math.ceil(total / query.pageSize),
      items: forms.map((form) => presentFormSummary(form, region, this.links)),
    };
  }

  async replace(
    accountId: string,
    formId: string,
    body: unknown,
    expectedVersion?: number,
  ): Promise<VersionedForm> {
    return this.write(accountId, formId, expectedVersion, async (current) => {
      const { definition, workspaceHref } = parseFormDefinition(body, current.definition);
      await this.formImages.check(accountId, definition);
      const workspaceId = workspaceHref
        ? await this.resolveWorkspace(accountId, workspaceHref)
        : current.workspaceId;
      return { definition, workspaceId };
    });
  }

  async patch(
    accountId: string,
    formId: string,
    operations: unknown,
    expectedVersion?: number,
  ): Promise<number> {
    const parsedOperations = parsePatchOperations(operations);
    const written = await this.write(accountId, formId, expectedVersion, async (current) => {
      const patched = applyPatch(editableForm(current, this.links), parsedOperations, patchableRoots);
      const { definition, workspaceHref } = parseFormDefinition(patched, current.definition);
      await this.formImages.check(accountId, definition);
      const workspaceId = workspaceHref
        ? await this.resolveWorkspace(accountId, workspaceHref)
        : current.workspaceId;
      return { definition, workspaceId };
    });
    return written.version;
  }

  async messages(accountId: string, formId: string): Promise<Record<string, string>> {
    return (await this.owned(accountId, formId)).definition.messages ?? {};
  }

  // Replaces every message of the form (Typeform's PUT): those left out read their defaults again.
  async replaceMessages(accountId: string, formId: string, body: unknown): Promise<void> {
    const parsed = formMessagesSchema.safeParse(body);
    if (!parsed.success) {
      throw new DomainError(
        ErrorCode.ValidationError,
        'The form messages are invalid.',
        detailsFromIssues(parsed.error.issues, 'body'),
      );
    }
    const messages = Object.fromEntries(
      Object.entries(parsed.data).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    await this.write(accountId, formId, undefined, (current) =>
      Promise.resolve({
        workspaceId: current.workspaceId,
        definition: { ...current.definition, messages },
      }),
    );
  }

  // Where a form's responses live, for routing a submission (no caller scope:
  // respondents of public forms have no token).
  async locate(formId: string): Promise<FormLocation> {
    const form = await this.forms.findAnywhere(formId);
    if (!form) throw formNotFound(formId);
    return {
      formId,
      accountId: form.accountId,
      region: form.region,
      isPublic: form.definition.settings.is_public !== false,
    };
  }

  // The definition a submission is checked against, with the form's location.
  async snapshot(formId: string): Promise<FormLocation & { definition: FormDefinition }> {
    const form = await this.forms.findAnywhere(formId);
    if (!form) throw formNotFound(formId);
    const location = { formId, accountId: form.accountId, region: form.region };
    return {
      ...location,
      isPublic: form.definition.settings.is_public !== false,
      definition: form.definition,
    };
  }

  async delete(accountId: string, formId: string): Promise<void> {
    if (!(await this.forms.delete(accountId, formId))) throw formNotFound(formId);
    await this.announcer.formChanged(formId);
  }

  private async write(
    accountId: string,
    formId: string,
    expectedVersion: number | undefined,
    change: (current: StoredForm) => Promise<Pick<StoredForm, 'definition' | 'workspaceId'>>,
  ): Promise<VersionedForm> {
    const updated = await this.forms.updateLocked(accountId, formId, (current) => {
      if (expectedVersion !== undefined && current.version !== expectedVersion) throw stale(formId);
      return change(current);
    });
    if (!updated) throw formNotFound(formId);
    await this.announcer.formChanged(formId);
    return this.present(accountId, updated);
  }

  private async owned(accountId: string, formId: string): Promise<StoredForm> {
    const form = await this.forms.findOwned(accountId, formId);
    if (!form) throw formNotFound(formId);
    return form;
  }

  private async present(accountId: string, form: StoredForm): Promise<VersionedForm> {
    const region = await this.forms.accountRegion(accountId);
    return { form: presentForm(form, region, this.links), version: form.version };
  }

  // The workspace named by href must be one of the account's; none named means the default.
  private async resolveWorkspace(accountId: string, href: string | undefined): Promise<string> {
    if (!href) return (await this.workspaces.findDefault(accountId)).id;
    const workspaceId = this.links.workspaceIdFromHref(href);
    const workspace = workspaceId && (await this.workspaces.findOwned(accountId, workspaceId));
    if (!workspace) {
      throw new DomainError(ErrorCode.ValidationError, 'The form names a workspace that does not exist.', [
        {
          code: 'INVALID_REFERENCE',
          description: `no workspace at ${href}`,
          field: 'workspace.href',
          in: 'body',
        },
      ]);
    }
    return workspace.id;
  }
}

function formNotFound(formId: string): DomainError {
  return new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
}

function stale(formId: string): DomainError {
  return new DomainError(
    ErrorCode.PreconditionFailed,
    `Form ${formId} changed since the version named in If-Match; read it again and retry.`,
  );
}
