import type { WorkspaceResource } from '@formline/contracts';
import type { ResourceLinks } from './resource-links';
import type { StoredWorkspace } from './workspace.repository';

export function presentWorkspace(workspace: StoredWorkspace, links: ResourceLinks): WorkspaceResource {
  return {
    id: workspace.id,
    name: workspace.name,
    default: workspace.isDefault,
    shared: false,
    account_id: workspace.accountId,
    forms: { count: workspace.formCount, href: links.workspaceForms(workspace.id) },
    self: { href: links.workspace(workspace.id) },
  };
}
