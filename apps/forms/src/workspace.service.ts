import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { type Page, workspaceBodySchema, type WorkspaceResource } from '@formline/contracts';
import { DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import { FORMS_CONFIG, type FormsConfig } from './forms.config';
import { applyPatch, parsePatchOperations } from './json-patch';
import { ResourceLinks } from './resource-links';
import { presentWorkspace } from './workspace.presenter';
import { WorkspaceRepository, type StoredWorkspace } from './workspace.repository';

// Workspaces group an account's forms. Every account has a default one, which
// cannot be deleted; a workspace that still holds forms cannot be deleted
// either, so deleting a workspace never deletes forms (and their responses).
@Injectable()
export class WorkspaceService {
  private readonly links: ResourceLinks;

  constructor(
    private readonly workspaces: WorkspaceRepository,
    @Inject(FORMS_CONFIG) config: FormsConfig,
  ) {
    this.links = new ResourceLinks(regionBaseUrls(config));
  }

  async create(accountId: string, body: unknown): Promise<WorkspaceResource> {
    const { name } = parseWorkspaceBody(body);
    return presentWorkspace(await this.workspaces.create(accountId, name), this.links);
  }

  async get(accountId: string, workspaceId: string): Promise<WorkspaceResource> {
    return presentWorkspace(await this.owned(accountId, workspaceId), this.links);
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

  async patch(accountId: string, workspaceId: string, operations: unknown): Promise<void> {
    const current = await this.owned(accountId, workspaceId);
    const patched = applyPatch({ name: current.name }, parsePatchOperations(operations), ['name']);
    await this.workspaces.rename(accountId, workspaceId, parseWorkspaceBody(patched).name);
  }

  async delete(accountId: string, workspaceId: string): Promise<void> {
    const workspace = await this.owned(accountId, workspaceId);
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

  private async owned(accountId: string, workspaceId: string): Promise<StoredWorkspace> {
    const workspace = await this.workspaces.findOwned(accountId, workspaceId);
    if (!workspace)
      throw new DomainError(ErrorCode.WorkspaceNotFound, `Non existing workspace with id ${workspaceId}.`);
    return workspace;
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
