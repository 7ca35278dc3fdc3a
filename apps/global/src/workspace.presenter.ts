import type { WorkspaceResource } from '@formline/contracts';
import type { ResourceLinks } from './resource-links';
import type { StoredWorkspace } from './workspace.repository';

export function presentWorkspace(workspace: StoredWorkspace, links: ResourceLinks): WorkspaceResource {
  return {
    id: workspace.id,
    name: workspace.name,
    default: workspace.isDefault,
    shared: workspace.members.length > 0,
    account_id: workspace.accountId,
    // The owning account first, then everyone it is shared with, each with
    // the role it was given (Typeform's members: name, email, role).
    members: [
      { name: workspace.owner.alias, email: workspace.owner.email, role: 'owner' as const },
      ...workspace.members.map(({ email, role }) => ({
        name: email.slice(0, email.indexOf('@')),
        email,
        role,
      })),
    ],
    forms: { count: workspace.formCount, href: links.workspaceForms(workspace.id) },
    self: { href: links.workspace(workspace.id) },
  };
}
