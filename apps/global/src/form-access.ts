import { Injectable } from '@nestjs/common';
import type { FormNeed } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { type FormOwnership, FormRepository, type StoredForm } from './form.repository';
import { WorkspaceRepository, type WorkspaceAccess } from './workspace.repository';

// Who may do what with a form, decided in one place. A form is reached by the
// account that owns it, or through the workspace that holds it when that
// workspace is shared with the caller's account (by its email), with the role
// the caller holds there. Members edit and read what the form collects;
// removing things (the form, its responses) and taking the form elsewhere
// stay with owners, as Typeform's member role cannot either. Webhooks stay the
// owning account's: to a member, as to anyone else, they are not there (404,
// not 403): deliveries carry the owner's data to the owner's endpoints.
const allowed: Record<FormNeed, Record<WorkspaceAccess, boolean>> = {
  read: { owning_account: true, owner: true, member: true },
  write: { owning_account: true, owner: true, member: true },
  delete: { owning_account: true, owner: true, member: false },
  move: { owning_account: true, owner: true, member: false },
  'responses-read': { owning_account: true, owner: true, member: true },
  'responses-delete': { owning_account: true, owner: true, member: false },
  webhooks: { owning_account: true, owner: false, member: false },
};
// Needs that a caller who may not fulfil them is told nothing about.
const unseenWhenRefused: ReadonlySet<FormNeed> = new Set(['webhooks']);

export function allows(access: WorkspaceAccess, need: FormNeed): boolean {
  return allowed[need][access];
}

export interface ReachedForm {
  /** The form, with its owning account (whose data it is) and that account's region. */
  form: StoredForm;
  access: WorkspaceAccess;
}

@Injectable()
export class FormAccess {
  constructor(
    private readonly forms: FormRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  // The form, when the caller may do `need` with it (see decide).
  async require(accountId: string, formId: string, need: FormNeed): Promise<ReachedForm> {
    const form = await this.forms.findAnywhere(formId);
    if (!form) throw formNotFound(formId);
    return { form, access: await this.decide(accountId, form, need) };
  }

  // How the caller reaches a form already read (by any lookup, or under its
  // row lock, so that a concurrent move or removal is seen), when it may do
  // `need` with it. No access at all is the 404 of a form that does not exist
  // (whether another account's form exists is nobody else's business); a
  // member whose role falls short gets 403, as it may see the form and a 404
  // would lie. The owning account's own form costs no query.
  async decide(accountId: string, form: FormOwnership, need: FormNeed): Promise<WorkspaceAccess> {
    const access: WorkspaceAccess | undefined =
      form.accountId === accountId
        ? 'owning_account'
        : await this.workspaces.memberRole(accountId, form.workspaceId);
    if (!access) throw formNotFound(form.id);
    if (!allows(access, need))
      throw unseenWhenRefused.has(need) ? formNotFound(form.id) : forbidden(form.id, need);
    return access;
  }

  // How the caller may put a form in a workspace: `write` to create one there,
  // `move` to move one in. The form then belongs to the workspace's owning
  // account. Undefined when the caller does not reach the workspace (the
  // caller says it does not exist); 403 when its role falls short.
  async requireWorkspace(
    accountId: string,
    workspaceId: string,
    need: 'write' | 'move',
  ): Promise<{ accountId: string } | undefined> {
    const reached = await this.workspaces.access(accountId, workspaceId);
    if (!reached) return undefined;
    if (!allows(reached.access, need)) {
      throw new DomainError(
        ErrorCode.Forbidden,
        `Workspace ${workspaceId} is shared with you as a member: only its owners may move forms into it.`,
      );
    }
    return { accountId: reached.accountId };
  }
}

function describe(need: FormNeed): string {
  switch (need) {
    case 'read':
      return 'read it';
    case 'write':
      return 'change it';
    case 'delete':
      return 'delete it';
    case 'move':
      return 'move it to another workspace';
    case 'responses-read':
      return 'read its responses';
    case 'responses-delete':
      return 'delete its responses';
    case 'webhooks':
      return 'manage its webhooks';
  }
}

function forbidden(formId: string, need: FormNeed): DomainError {
  return new DomainError(
    ErrorCode.Forbidden,
    `Form ${formId} is in a workspace shared with you as a member: only its owners may ${describe(need)}.`,
  );
}

export function forbiddenToMove(formId: string): DomainError {
  return forbidden(formId, 'move');
}

export function formNotFound(formId: string): DomainError {
  return new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
}
