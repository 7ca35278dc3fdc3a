import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import {
  type Page,
  workspaceBodySchema,
  workspaceMemberValueSchema,
  type WorkspaceResource,
} from '@formline/contracts';
import { isEmailAddress } from '@formline/form-logic';
import { DomainError, ErrorCode, detailsFromIssues, type ErrorDetail } from '@formline/errors';
import { ChangeAnnouncer } from './change-announcer';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { applyPatch, parsePatchOperations } from './json-patch';
import { ResourceLinks } from './resource-links';
import { presentWorkspace } from './workspace.presenter';
import {
  maxWorkspaceMembers,
  WorkspaceRepository,
  type StoredWorkspace,
  type WorkspaceAccess,
} from './workspace.repository';

// Workspaces group an account's forms. Every account has a default one, which
// cannot be deleted; a workspace that still holds forms cannot be deleted
// either, so deleting a workspace never deletes forms (and their responses).
@Injectable()
export class WorkspaceService {
  private readonly links: ResourceLinks;

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly announcer: ChangeAnnouncer,
    @Inject(GLOBAL_CONFIG) config: GlobalConfig,
  ) {
    this.links = new ResourceLinks(regionBaseUrls(config));
  }

  async create(accountId: string, body: unknown): Promise<WorkspaceResource> {
    const { name } = parseWorkspaceBody(body);
    return presentWorkspace(await this.workspaces.create(accountId, name), this.links);
  }

  // Its owning account and every member account (by email) may read it.
  async get(accountId: string, workspaceId: string): Promise<WorkspaceResource> {
    return presentWorkspace((await this.reachable(accountId, workspaceId)).workspace, this.links);
  }

  async list(
    accountId: string,
    query: { page: number; pageSize: number; search?: string },
  ): Promise<Page<WorkspaceResource>> {
    const { total, workspaces } = await this.workspaces.list(accountId, query);
    return {
      total_items: total,
      page_count: Math.ceil(total / query.pageSize),
      items: workspaces.map((workspace) => presentWorkspace(workspace, this.links)),
    };
  }

  // JSON Patch on /name (rename) and on /members, where Typeform's SDK adds and
  // removes members by email ({op: 'add' | 'remove', path: '/members', value: {email}}),
  // an add naming the member's role as Typeform's reference shows (`role`: owner or member).
  // Every operation is checked before any is applied; all apply at once.
  // The owning account and members with role `owner` may patch; a `member` may only read.
  async patch(accountId: string, workspaceId: string, operations: unknown): Promise<void> {
    const { workspace: current, access } = await this.reachable(accountId, workspaceId);
    if (access === 'member') {
      throw new DomainError(
        ErrorCode.Forbidden,
        `Workspace ${workspaceId} is shared with you as a member: only its owners may change it.`,
      );
    }
    const parsed = parsePatchOperations(operations);
    const nameOperations = parsed.filter((operation) => operation.path !== '/members');
    const name =
      nameOperations.length > 0
        ? parseWorkspaceBody(applyPatch({ name: current.name }, nameOperations, ['name'])).name
        : undefined;
    const members = new Map<string, { op: 'add' | 'remove'; role?: 'owner' | 'member' }>();
    const problems: ErrorDetail[] = [];
    parsed.forEach((operation, index) => {
      if (operation.path !== '/members') return;
      const problem = (description: string) =>
        problems.push({ code: 'INVALID_PATCH', description, field: `[${index}].value`, in: 'body' });
      if (operation.op === 'replace') return problem('members are added or removed one by one, not replaced');
      const value = workspaceMemberValueSchema.safeParse(operation.value);
      if (!value.success || !isEmailAddress(value.data.email))
        return problem(
          'the value is {"email": "someone@example.com"}, with "role" owner or member on an add',
        );
      if (value.data.email === current.owner.email.toLowerCase())
        return problem("the workspace's owner is always a member");
      members.set(value.data.email, { op: operation.op, role: value.data.role });
    });
    if (problems.length > 0)
      throw new DomainError(ErrorCode.ValidationError, 'The patch cannot be applied.', problems);
    const addMembers = [...members]
      .filter(([, change]) => change.op === 'add')
      .map(([email, { role }]) => ({ email, role }));
    const removeMembers = [...members].filter(([, change]) => change.op === 'remove').map(([email]) => email);
    if (current.members.length + addMembers.length > maxWorkspaceMembers) {
      throw new DomainError(
        ErrorCode.ValidationError,
        `A workspace is shared with at most ${maxWorkspaceMembers} members.`,
      );
    }
    const { removedAccountIds } = await this.workspaces.change(current.accountId, workspaceId, {
      name,
      addMembers,
      removeMembers,
    });
    // This region's gateways drop what they cached for them before the reply
    // is sent, so the removal holds from the next request on.
    for (const removed of removedAccountIds) await this.announcer.workspaceAccessRevoked(removed);
  }

  // Only the owning account deletes: the forms it may hold are that account's.
  async delete(accountId: string, workspaceId: string): Promise<void> {
    const { workspace, access } = await this.reachable(accountId, workspaceId);
    if (access !== 'owning_account') {
      throw new DomainError(
        ErrorCode.Forbidden,
        `Only the account that owns workspace ${workspaceId} deletes it.`,
      );
    }
    if (workspace.isDefault) {
      throw new DomainError(ErrorCode.Conflict, 'The default workspace cannot be deleted.');
    }
    if (!(await this.workspaces.deleteIfEmpty(accountId, workspaceId))) {
      throw new DomainError(
        ErrorCode.Conflict,
        `Workspace ${workspaceId} still holds forms; move or delete them first.`,
      );
    }
  }

  // Anyone else, member of nothing here, learns nothing: 404 as for a workspace that does not exist.
  private async reachable(
    accountId: string,
    workspaceId: string,
  ): Promise<{ workspace: StoredWorkspace; access: WorkspaceAccess }> {
    const found = await this.workspaces.findReachable(accountId, workspaceId);
    if (!found)
      throw new DomainError(ErrorCode.WorkspaceNotFound, `Non existing workspace with id ${workspaceId}.`);
    return found;
  }
}

function parseWorkspaceBody(body: unknown): { name: string } {
  const parsed = workspaceBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new DomainError(
      ErrorCode.ValidationError,
      'The workspace is invalid.',
      detailsFromIssues(parsed.error.issues, 'body'),
    );
  }
  return parsed.data;
}
