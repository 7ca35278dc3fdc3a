import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import {
  type FormAuthorization,
  type FormLocation,
  formMessagesSchema,
  type FormNeed,
  type FormSummary,
  type Page,
  type VersionedForm,
} from '@formline/contracts';
import { DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import { type FormDefinition, isPublicForm, parseFormDefinition } from '@formline/form-definition';
import { newPublicId } from '@formline/ids';
import { ChangeAnnouncer } from './change-announcer';
import { allows, FormAccess, forbiddenToMove, formNotFound } from './form-access';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { editableForm, presentForm, presentFormSummary } from './form.presenter';
import { type FormListQuery, type FormOwnership, FormRepository, type StoredForm } from './form.repository';
import { applyPatch, parsePatchOperations } from './json-patch';
import { FormDeletionRelayJob } from './form-deletion/form-deletion-relay.job';
import { FormImagesCheck } from './images/form-images.check';
import { ResourceLinks } from './resource-links';
import { WorkspaceRepository, type WorkspaceAccess } from './workspace.repository';

// The properties PATCH may change, as Typeform allows.
const patchableRoots = ['title', 'settings', 'theme', 'workspace', 'cui_settings'];

// Creates, reads, replaces, patches and deletes forms. A write reads the form
// under its row lock, so concurrent writers queue and none is lost; with an
// expected version (If-Match) a write on a form changed since is refused (412).
// Who may do what is FormAccess's: the caller's own forms, and those of the
// workspaces shared with it. A form always stays its owning account's (its
// images, its region, its responses), whoever edits it.
@Injectable()
export class FormService {
  private readonly links: ResourceLinks;

  constructor(
    private readonly forms: FormRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly access: FormAccess,
    private readonly announcer: ChangeAnnouncer,
    private readonly formImages: FormImagesCheck,
    private readonly deletionRelay: FormDeletionRelayJob,
    @Inject(GLOBAL_CONFIG) config: GlobalConfig,
  ) {
    this.links = new ResourceLinks(regionBaseUrls(config));
  }

  // A form created in a workspace shared with the caller belongs to the
  // workspace's owning account, like the workspace's other forms.
  async create(accountId: string, body: unknown): Promise<VersionedForm> {
    const { definition, workspaceHref } = parseFormDefinition(body);
    const target = await this.resolveWorkspace(accountId, workspaceHref, 'write');
    await this.formImages.check(target.accountId, definition);
    const form = await this.forms.create({
      id: newPublicId(),
      accountId: target.accountId,
      workspaceId: target.workspaceId,
      definition,
    });
    return this.present(form);
  }

  async get(accountId: string, formId: string): Promise<VersionedForm> {
    return this.present((await this.access.require(accountId, formId, 'read')).form);
  }

  async list(accountId: string, query: FormListQuery): Promise<Page<FormSummary>> {
    const shared = await this.workspaces.sharedWithIds(accountId);
    const { total, forms } = await this.forms.list(accountId, shared, query);
    return {
      total_items: total,
      page_count: Math.ceil(total / query.pageSize),
      items: forms.map((form) => presentFormSummary(form, form.region, this.links)),
    };
  }

  async replace(
    accountId: string,
    formId: string,
    body: unknown,
    expectedVersion?: number,
  ): Promise<VersionedForm> {
    return this.write(accountId, formId, expectedVersion, async (current, access) => {
      const { definition, workspaceHref } = parseFormDefinition(body, current.definition);
      await this.formImages.check(current.accountId, definition);
      return { definition, workspaceId: await this.destination(accountId, access, current, workspaceHref) };
    });
  }

  async patch(
    accountId: string,
    formId: string,
    operations: unknown,
    expectedVersion?: number,
  ): Promise<number> {
    const parsedOperations = parsePatchOperations(operations);
    const written = await this.write(accountId, formId, expectedVersion, async (current, access) => {
      const patched = applyPatch(editableForm(current, this.links), parsedOperations, patchableRoots);
      const { definition, workspaceHref } = parseFormDefinition(patched, current.definition);
      await this.formImages.check(current.accountId, definition);
      return { definition, workspaceId: await this.destination(accountId, access, current, workspaceHref) };
    });
    return written.version;
  }

  async messages(accountId: string, formId: string): Promise<Record<string, string>> {
    return (await this.access.require(accountId, formId, 'read')).form.definition.messages ?? {};
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

  // Whether the caller may do `need` with the form, for the services that
  // keep the form's data elsewhere (responses): the owning account whose data
  // to reach, and its region.
  async authorize(accountId: string, formId: string, need: FormNeed): Promise<FormAuthorization> {
    const form = await this.ownership(formId);
    await this.access.decide(accountId, form, need);
    return { accountId: form.accountId, region: form.region };
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
      isPublic: isPublicForm(form.definition),
    };
  }

  // The definition a submission is checked against, with the form's location.
  async snapshot(formId: string): Promise<FormLocation & { definition: FormDefinition }> {
    const form = await this.forms.findAnywhere(formId);
    if (!form) throw formNotFound(formId);
    const location = { formId, accountId: form.accountId, region: form.region };
    return {
      ...location,
      isPublic: isPublicForm(form.definition),
      definition: form.definition,
    };
  }

  async delete(accountId: string, formId: string): Promise<void> {
    const form = await this.ownership(formId);
    await this.access.decide(accountId, form, 'delete');
    if (!(await this.forms.delete(form.accountId, formId, form.region))) throw formNotFound(formId);
    await this.announcer.formChanged(formId);
    // Its data is purged in its region; this region's relay may start now.
    this.deletionRelay.nudge();
  }

  private async write(
    accountId: string,
    formId: string,
    expectedVersion: number | undefined,
    change: (
      current: StoredForm,
      access: WorkspaceAccess,
    ) => Promise<Pick<StoredForm, 'definition' | 'workspaceId'>>,
  ): Promise<VersionedForm> {
    // Decided on the locked row: a move or a removal committed meanwhile is seen.
    const updated = await this.forms.updateLocked(formId, async (current) => {
      const access = await this.access.decide(accountId, current, 'write');
      if (expectedVersion !== undefined && current.version !== expectedVersion) throw stale(formId);
      return change(current, access);
    });
    if (!updated) throw formNotFound(formId);
    await this.announcer.formChanged(formId);
    return this.present(updated);
  }

  private async ownership(formId: string): Promise<FormOwnership> {
    const form = await this.forms.findOwnership(formId);
    if (!form) throw formNotFound(formId);
    return form;
  }

  // `_links.responses` names the owning account's region, whoever reads it:
  // that is where the form's responses are.
  private present(form: StoredForm): VersionedForm {
    return { form: presentForm(form, form.region, this.links), version: form.version };
  }

  // The workspace a written form names. Staying where it is needs nothing
  // more than the write; moving needs `move` on the form and on the
  // destination, which must be a workspace of the form's owning account: a
  // form never changes hands by moving (its responses live in its account's region).
  private async destination(
    accountId: string,
    access: WorkspaceAccess,
    current: StoredForm,
    workspaceHref: string | undefined,
  ): Promise<string> {
    if (!workspaceHref) return current.workspaceId;
    const workspaceId = this.links.workspaceIdFromHref(workspaceHref);
    if (workspaceId === current.workspaceId) return current.workspaceId;
    if (!allows(access, 'move')) throw forbiddenToMove(current.id);
    const target = await this.resolveWorkspace(accountId, workspaceHref, 'move');
    if (target.accountId !== current.accountId) {
      throw new DomainError(ErrorCode.ValidationError, 'The form names a workspace of another account.', [
        {
          code: 'INVALID_REFERENCE',
          description: `a form moves only between workspaces of the account that owns it, and ${workspaceHref} is not one`,
          field: 'workspace.href',
          in: 'body',
        },
      ]);
    }
    return target.workspaceId;
  }

  // The workspace named by href (the caller's own, or one shared with it);
  // none named means the caller's default. The form goes to its owning account.
  private async resolveWorkspace(
    accountId: string,
    href: string | undefined,
    need: 'write' | 'move',
  ): Promise<{ workspaceId: string; accountId: string }> {
    if (!href) return { workspaceId: (await this.workspaces.findDefault(accountId)).id, accountId };
    const workspaceId = this.links.workspaceIdFromHref(href);
    const reached = workspaceId && (await this.access.requireWorkspace(accountId, workspaceId, need));
    if (!reached) {
      throw new DomainError(ErrorCode.ValidationError, 'The form names a workspace that does not exist.', [
        {
          code: 'INVALID_REFERENCE',
          description: `no workspace at ${href}`,
          field: 'workspace.href',
          in: 'body',
        },
      ]);
    }
    return { workspaceId, accountId: reached.accountId };
  }
}

function stale(formId: string): DomainError {
  return new DomainError(
    ErrorCode.PreconditionFailed,
    `Form ${formId} changed since the version named in If-Match; read it again and retry.`,
  );
}
