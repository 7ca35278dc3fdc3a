import type { FormDefinition } from './form-definition';

export interface MilestoneStatus {
  field_ref: string;
  status: 'active' | 'inactive';
  reason?: 'wrong_position' | 'incompatible_feature';
}

// Milestone status is informative: computed on every read, never taken from
// the client. A milestone works after a top-level block of the form;
// a ref that is not one (unknown, or inside a group) is in the wrong position.
export function computeMilestones(form: FormDefinition): MilestoneStatus[] {
  const topLevelRefs = new Set(form.fields.map((field) => field.ref));
  return (form.settings.milestones ?? []).map(({ field_ref }) =>
    topLevelRefs.has(field_ref)
      ? { field_ref, status: 'active' }
      : { field_ref, status: 'inactive', reason: 'wrong_position' },
  );
}
