import type { WorkspaceResource } from '@formline/contracts';
import type { ResourceLinks } from './resource-links';
import type { StoredWorkspace } from './workspace.repository';

export function presentWorkspace(workspace: StoredWorkspace, links: ResourceLinks): WorkspaceResource {
  return {
    id: workspace.id,
    name: workspace.name,
    default: workspace.isDefault,
    shared: workspace.memberEmails.length > 0,
    account_id: workspace.accountId,
    // The owning account first, then everyone it is shared with (Typeform's members).
    members: [
      { name: workspace.owner.alias, email: workspace.owner.email, role: 'owner' as const },
      ...workspace.memberEmails.map((email) => ({
        name: email.slice(0, email.indexOf('@')),
        email,
        role: 'member' as const,
      })),
    ],
    forms: { count: workspace.formCount, href: links.workspaceForms(workspace.id) },
    self: { href: links.workspace(workspace.id) },
  };
}
