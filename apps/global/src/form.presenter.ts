import type { FormResource, FormSummary, Region } from '@formline/contracts';
import { computeMilestones, type FormDefinition } from '@formline/form-definition';
import type { ListedForm, StoredForm } from './form.repository';
import type { ResourceLinks } from './resource-links';

// The form resource as a client editing the form sees it, keys in one fixed
// order, so it reads the same every time.
export function presentForm(form: StoredForm, region: Region, links: ResourceLinks): FormResource {
  const d = form.definition;
  return {
    id: form.id,
    type: d.type ?? 'quiz',
    title: d.title,
    language: d.language,
    fields: d.fields,
    hidden: d.hidden,
    variables: d.variables,
    welcome_screens: d.welcome_screens,
    thankyou_screens: d.thankyou_screens,
    logic: d.logic,
    theme: { href: d.theme?.href ?? links.defaultTheme() },
    workspace: { href: links.workspace(form.workspaceId) },
    _links: { display: links.display(form.id), responses: links.responses(form.id, region) },
    settings: presentSettings(d),
    cui_settings: d.cui_settings,
    created_at: form.createdAt.toISOString(),
    last_updated_at: form.updatedAt.toISOString(),
  };
}

function presentSettings(definition: FormDefinition): Record<string, unknown> {
  const { milestones, ...settings } = definition.settings;
  return milestones ? { ...settings, milestones: computeMilestones(definition) } : settings;
}

// One item of GET /forms, as Typeform lists forms.
export function presentFormSummary(form: ListedForm, region: Region, links: ResourceLinks): FormSummary {
  return {
    id: form.id,
    type: form.listed.type ?? 'quiz',
    title: form.title,
    last_updated_at: form.updatedAt.toISOString(),
    created_at: form.createdAt.toISOString(),
    settings: { is_public: form.listed.isPublic },
    self: { href: links.form(form.id) },
    theme: { href: form.listed.themeHref ?? links.defaultTheme() },
    _links: { display: links.display(form.id), responses: links.responses(form.id, region) },
  };
}

// What a client edits: the definition with its workspace, as PATCH sees it.
export function editableForm(form: StoredForm, links: ResourceLinks): Record<string, unknown> {
  // Messages have their own endpoint; the form resource never carries them.
  const { messages: _messages, ...definition } = form.definition;
  return { ...definition, workspace: { href: links.workspace(form.workspaceId) } };
}
