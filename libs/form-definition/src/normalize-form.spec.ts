import { computeMilestones } from './milestones';
import { type IdSource, normalizeForm } from './normalize-form';
import { parseFormDefinition } from './parse-form';
import { fullForm } from './test-form.fixture';

// Predictable ids, so the tests can name them.
function counterIds(): IdSource {
  let n = 0;
  return { id: () => `id${++n}`, ref: () => `ref${n}` };
}

describe('normalizeForm', () => {
  it('fills every documented default on a minimal form', () => {
    expect(normalizeForm({ title: 'Minimal' }, undefined, counterIds())).toEqual({
      title: 'Minimal',
      type: 'quiz',
      language: 'en',
      fields: [],
      hidden: [],
      variables: { score: 0, price: 0 },
      welcome_screens: [],
      thankyou_screens: [
        {
          id: 'id1',
          ref: 'default_tys',
          title: 'Thanks for completing this form!',
          type: 'thankyou_screen',
          properties: { show_button: false, share_icons: false, button_mode: 'default_redirect' },
        },
      ],
      logic: [],
      settings: {
        language: 'en',
        is_public: true,
        autosave_progress: true,
        progress_bar: 'proportion',
        show_progress_bar: true,
        show_service_branding: true,
        show_time_to_complete: true,
        show_question_number: true,
        show_key_hint_on_choices: true,
        meta: { allow_indexing: true },
      },
      cui_settings: { is_typing_emulation_disabled: false },
    });
  });

  it('generates ids and refs for fields and choices, and required: false', () => {
    const form = normalizeForm(
      { title: 't', fields: [{ title: 'Q', type: 'dropdown', properties: { choices: [{ label: 'A' }] } }] },
      undefined,
      counterIds(),
    );
    expect(form.fields[0]).toMatchObject({ id: 'id1', ref: 'ref1', validations: { required: false } });
    expect(form.fields[0].properties.choices).toEqual([{ id: 'id2', ref: 'ref2', label: 'A' }]);
  });

  it('keeps ids stable across updates, matched by id or by ref', () => {
    const first = parseFormDefinition({
      title: 't',
      fields: [
        { ref: 'a', title: 'A', type: 'short_text' },
        { title: 'B', type: 'multiple_choice', properties: { choices: [{ ref: 'x', label: 'X' }] } },
      ],
    }).definition;
    const [a, b] = first.fields;
    const second = parseFormDefinition(
      {
        title: 't',
        fields: [
          { title: 'New', type: 'email' },
          {
            id: b.id,
            title: 'B renamed',
            type: 'multiple_choice',
            properties: { choices: [{ ref: 'x', label: 'X2' }] },
          },
          { ref: 'a', title: 'A moved', type: 'short_text' },
        ],
      },
      first,
    ).definition;
    expect(second.fields[1].id).toBe(b.id);
    expect(second.fields[1].ref).toBe(b.ref);
    expect(second.fields[1].properties.choices?.[0].id).toBe(b.properties.choices?.[0].id);
    expect(second.fields[2].id).toBe(a.id);
    expect([a.id, b.id]).not.toContain(second.fields[0].id);
    const defaultEnding = (form: typeof first) =>
      form.thankyou_screens.find((s) => s.ref === 'default_tys')?.id;
    expect(defaultEnding(second)).toBe(defaultEnding(first));
  });

  it('replaces an id the form never had, and never hands out one id twice', () => {
    const first = parseFormDefinition({
      title: 't',
      fields: [{ ref: 'a', title: 'A', type: 'short_text' }],
    }).definition;
    const second = parseFormDefinition(
      {
        title: 't',
        fields: [
          { id: 'made-up', title: 'X', type: 'short_text' },
          { id: first.fields[0].id, title: 'A', type: 'short_text' },
          { id: first.fields[0].id, title: 'A again', type: 'short_text' },
        ],
      },
      first,
    ).definition;
    const ids = second.fields.map((field) => field.id);
    expect(ids[0]).not.toBe('made-up');
    expect(ids[1]).toBe(first.fields[0].id);
    expect(new Set(ids).size).toBe(3);
  });

  it('is idempotent: a stored form sent back is stored unchanged', () => {
    const first = parseFormDefinition(fullForm()).definition;
    expect(parseFormDefinition(first, first).definition).toEqual(first);
  });
});

describe('computeMilestones', () => {
  it('is active after a top-level block, and in the wrong position otherwise', () => {
    const form = parseFormDefinition({
      title: 't',
      fields: [
        { ref: 'top', title: 'Top', type: 'short_text' },
        {
          ref: 'g',
          title: 'G',
          type: 'group',
          properties: { fields: [{ ref: 'inner', title: 'I', type: 'yes_no' }] },
        },
      ],
    }).definition;
    const at = (field_ref: string) =>
      computeMilestones({ ...form, settings: { ...form.settings, milestones: [{ field_ref }] } });
    expect(at('top')).toEqual([{ field_ref: 'top', status: 'active' }]);
    expect(at('inner')).toEqual([{ field_ref: 'inner', status: 'inactive', reason: 'wrong_position' }]);
    expect(at('missing')).toEqual([{ field_ref: 'missing', status: 'inactive', reason: 'wrong_position' }]);
  });
});
