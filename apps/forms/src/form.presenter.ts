import type { FormResource, RegionBaseUrls } from '@formline/contracts';
import type { StoredForm } from './form.repository';

// Builds the form resource as a client editing the form sees it (SPEC 2.1).
// Everything but `_links.responses` comes from the default region's address,
// so the same form reads byte-identical through both base addresses (SPEC 1,
// rule 1); `_links.responses` carries the account's region (SPEC 1, "Finding
// the right base address").
export function presentForm(form: StoredForm, baseUrls: RegionBaseUrls): FormResource {
  const definition = (form.definition ?? {}) as Record<string, unknown>;
  const base = baseUrls.us;
  return {
    id: form.id,
    title: form.title,
    language: 'en',
    ...definition,
    workspace: { href: `${base}/workspaces/${form.workspaceId}` },
    _links: {
      display: `${base}/to/${form.id}`,
      responses: `${baseUrls[form.accountRegion]}/forms/${form.id}/responses`,
    },
  };
}
