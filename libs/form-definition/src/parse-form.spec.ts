import { DomainError } from '@formline/errors';
import {
  attachmentTypes,
  buttonModes,
  calculationValueTypes,
  conditionOperators,
  fieldTypes,
  formTypes,
  jumpTargetTypes,
  languages,
  layoutPlacements,
  layoutTypes,
  logicActions,
  progressBars,
  typingEmulationSpeeds,
  videoScales,
} from './enums';
import { allFields } from './form-definition';
import { parseFormDefinition } from './parse-form';
import { fullForm, withValue } from './test-form.fixture';
import { typeformFormWithEveryField } from '@formline/form-fixtures';

// Table-driven over the form model: every enum value accepted, an invalid value
// rejected with the path of the offending property; every required property
// and every rule likewise.

function problemsOf(body: unknown): Array<{ field: string; code: string }> {
  try {
    parseFormDefinition(body);
    return [];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.toBody().code).toBe('VALIDATION_ERROR');
    return (error.details ?? []).map(({ field, code }) => ({ field, code }));
  }
}

const accepted = (body: unknown) => expect(problemsOf(body)).toEqual([]);
const rejectedAt = (body: unknown, field: string) =>
  expect(problemsOf(body).map((problem) => problem.field)).toContain(field);

const video = (href = 'https://www.youtube.com/watch?v=abc') => ({ type: 'video', href });

it('accepts the full fixture', () => accepted(fullForm()));

describe.each<[string, readonly unknown[], unknown, ((value: unknown) => Record<string, unknown>)?]>([
  ['language', languages, 'xx'],
  ['settings.language', languages, 'klingon'],
  ['fields[2].attachment.scale', videoScales, 0.5],
  ['fields[0].layout.type', layoutTypes, 'grid'],
  ['fields[0].layout.placement', layoutPlacements, 'top'],
  ['fields[0].layout.viewport_overrides.small.type', layoutTypes, 'grid'],
  ['fields[0].layout.viewport_overrides.large.placement', layoutPlacements, 'center'],
  ['thankyou_screens[0].properties.button_mode', ['reload', 'default_redirect'], 'explode'],
  ['settings.progress_bar', progressBars, 'bar'],
  ['cui_settings.typing_emulation_speed', typingEmulationSpeeds, 'instant'],
  ['logic[0].actions[1].action', logicActions.filter((a) => a !== 'jump'), 'modulo'],
  ['logic[0].actions[1].details.value.type', ['constant', 'evaluation'], 'random'],
  ['logic[0].actions[0].condition.op', conditionOperators, 'similar'],
])('%s', (path, valid, invalid) => {
  it.each(valid.map((value) => [value]))('accepts %p', (value) =>
    accepted(withValue(fullForm(), path, value)),
  );
  it(`rejects ${JSON.stringify(invalid)}`, () => rejectedAt(withValue(fullForm(), path, invalid), path));
});

describe('attachment type', () => {
  it.each(attachmentTypes.map((type) => [type]))('accepts %s', (type) =>
    accepted(
      withValue(
        fullForm(),
        'fields[0].attachment',
        type === 'video' ? video() : { type, href: 'https://x.example/a.png' },
      ),
    ),
  );
  it('rejects another type', () =>
    rejectedAt(withValue(fullForm(), 'fields[0].attachment.type', 'audio'), 'fields[0].attachment.type'));
  it('rejects a scale on an image', () =>
    rejectedAt(withValue(fullForm(), 'fields[0].attachment.scale', 0.6), 'fields[0].attachment.scale'));
  it('rejects a video off the supported platforms', () =>
    rejectedAt(
      withValue(fullForm(), 'fields[2].attachment.href', 'https://videos.example.com/v.mp4'),
      'fields[2].attachment.href',
    ));
  it('defaults a video scale to 0.6', () => {
    const { definition } = parseFormDefinition(withValue(fullForm(), 'fields[2].attachment', video()));
    expect(definition.fields[2].attachment).toEqual({
      type: 'video',
      href: 'https://www.youtube.com/watch?v=abc',
      scale: 0.6,
    });
  });
});

describe('thank-you screen type', () => {
  it('accepts thankyou_screen', () =>
    accepted(withValue(fullForm(), 'thankyou_screens[0].type', 'thankyou_screen')));
  it('accepts url_redirect with a redirect_url', () =>
    accepted(
      withValue(
        withValue(fullForm(), 'thankyou_screens[0].type', 'url_redirect'),
        'thankyou_screens[0].properties.redirect_url',
        'https://example.com/',
      ),
    ));
  it('rejects url_redirect without a redirect_url', () =>
    rejectedAt(
      withValue(fullForm(), 'thankyou_screens[0].type', 'url_redirect'),
      'thankyou_screens[0].properties.redirect_url',
    ));
  it('rejects the redirect button mode without a redirect_url', () =>
    rejectedAt(
      withValue(fullForm(), 'thankyou_screens[0].properties.button_mode', 'redirect'),
      'thankyou_screens[0].properties.redirect_url',
    ));
  it.each(buttonModes.map((mode) => [mode]))('accepts button_mode %s with a redirect_url', (mode) =>
    accepted(
      withValue(
        withValue(fullForm(), 'thankyou_screens[0].properties.button_mode', mode),
        'thankyou_screens[0].properties.redirect_url',
        'https://example.com/',
      ),
    ),
  );
  it('rejects another type', () =>
    rejectedAt(withValue(fullForm(), 'thankyou_screens[0].type', 'popup'), 'thankyou_screens[0].type'));
});

describe('logic jump', () => {
  it('accepts a jump on a hidden field', () =>
    accepted(withValue(withValue(fullForm(), 'logic[0].type', 'hidden'), 'logic[0].ref', 'source')));
  it('rejects another jump type', () =>
    rejectedAt(withValue(fullForm(), 'logic[0].type', 'question'), 'logic[0].type'));
  it.each(jumpTargetTypes.map((type) => [type]))('accepts a jump to a %s', (type) =>
    accepted(
      withValue(fullForm(), 'logic[0].actions[0].details.to', {
        type,
        value: type === 'field' ? 'name' : 'bye',
      }),
    ),
  );
  it('rejects another jump target type', () =>
    rejectedAt(
      withValue(fullForm(), 'logic[0].actions[0].details.to.type', 'page'),
      'logic[0].actions[0].details.to.type',
    ));
  it('accepts only `variable` as a target type', () =>
    rejectedAt(
      withValue(fullForm(), 'logic[0].actions[1].details.target.type', 'field'),
      'logic[0].actions[1].details.target.type',
    ));
  it.each(calculationValueTypes.map((type) => [type]))('accepts a %s value', (type) =>
    accepted(
      withValue(fullForm(), 'logic[0].actions[1].details.value', {
        type,
        value: type === 'variable' ? 'price' : 2,
      }),
    ),
  );
  it.each([
    ['field', 'name'],
    ['hidden', 'source'],
    ['variable', 'score'],
    ['constant', 42],
    ['choice', 'blue'],
  ])('accepts a %s condition var', (type, value) =>
    accepted(withValue(fullForm(), 'logic[0].actions[0].condition.vars[0]', { type, value })),
  );
  it('rejects another condition var type', () =>
    rejectedAt(
      withValue(fullForm(), 'logic[0].actions[0].condition.vars[0].type', 'formula'),
      'logic[0].actions[0].condition.vars[0].type',
    ));
});

describe('required properties', () => {
  it.each([
    'title',
    'fields[0].title',
    'fields[1].properties.choices[0].label',
    'welcome_screens[0].title',
    'thankyou_screens[0].title',
    'logic[0].type',
    'logic[0].actions',
    'logic[0].actions[0].action',
    'logic[0].actions[0].details',
    'logic[0].actions[0].condition',
    'logic[0].actions[0].condition.op',
    'logic[0].actions[0].condition.vars',
    'logic[0].actions[0].details.to.type',
    'logic[0].actions[0].details.to.value',
    'logic[0].actions[1].details.target.value',
    'logic[0].actions[1].details.value.value',
    'settings.milestones[0].field_ref',
  ])('%s', (path) => rejectedAt(withValue(fullForm(), path, undefined), path));
  it('a jump needs details.to', () =>
    rejectedAt(withValue(fullForm(), 'logic[0].actions[0].details', {}), 'logic[0].actions[0].details.to'));
  it('a calculation needs details.target and details.value', () => {
    const problems = problemsOf(withValue(fullForm(), 'logic[0].actions[1].details', {})).map((p) => p.field);
    expect(problems).toEqual(['logic[0].actions[1].details.target', 'logic[0].actions[1].details.value']);
  });
});

describe('rules', () => {
  it('rejects more than one milestone (one partial submit point a form)', () =>
    rejectedAt(
      withValue(fullForm(), 'settings.milestones', [{ field_ref: 'name' }, { field_ref: 'color' }]),
      'settings.milestones',
    ));
  it('ignores milestone status and reason on input', () => {
    const { definition } = parseFormDefinition(
      withValue(fullForm(), 'settings.milestones', [
        { field_ref: 'name', status: 'inactive', reason: 'incompatible_feature' },
      ]),
    );
    expect(definition.settings.milestones).toEqual([{ field_ref: 'name' }]);
  });
  it('rejects an unknown milestone status', () =>
    rejectedAt(
      withValue(fullForm(), 'settings.milestones[0].status', 'paused'),
      'settings.milestones[0].status',
    ));
  it('rejects show_time_to_complete together with show_number_of_submissions', () =>
    rejectedAt(
      withValue(
        withValue(fullForm(), 'settings.show_time_to_complete', true),
        'settings.show_number_of_submissions',
        true,
      ),
      'settings.show_number_of_submissions',
    ));
  it('turns show_time_to_complete off by default when submissions are shown', () => {
    const { definition } = parseFormDefinition(
      withValue(fullForm(), 'settings.show_number_of_submissions', true),
    );
    expect(definition.settings).toMatchObject({
      show_time_to_complete: false,
      show_number_of_submissions: true,
    });
  });
  it.each([
    ['logic[0].ref', 'nothing', 'logic[0].ref'],
    [
      'logic[0].actions[0].details.to',
      { type: 'field', value: 'nothing' },
      'logic[0].actions[0].details.to.value',
    ],
    [
      'logic[0].actions[0].details.to',
      { type: 'thankyou', value: 'nothing' },
      'logic[0].actions[0].details.to.value',
    ],
    [
      'logic[0].actions[0].condition.vars[0]',
      { type: 'field', value: 'nothing' },
      'logic[0].actions[0].condition.vars[0].value',
    ],
    [
      'logic[0].actions[0].condition.vars[0]',
      { type: 'hidden', value: 'nothing' },
      'logic[0].actions[0].condition.vars[0].value',
    ],
    [
      'logic[0].actions[0].condition.vars[0]',
      { type: 'choice', value: 'nothing' },
      'logic[0].actions[0].condition.vars[0].value',
    ],
    [
      'logic[0].actions[0].condition.vars[0]',
      { type: 'variable', value: 'nothing' },
      'logic[0].actions[0].condition.vars[0].value',
    ],
    [
      'logic[0].actions[1].details.value',
      { type: 'variable', value: 'nothing' },
      'logic[0].actions[1].details.value.value',
    ],
    ['logic[0].actions[1].details.target.value', 'nothing', 'logic[0].actions[1].details.target.value'],
  ])('rejects a reference to what the form lacks: %s', (path, value, field) =>
    rejectedAt(withValue(fullForm(), path, value), field),
  );
  it('rejects two fields with one ref', () =>
    rejectedAt(withValue(fullForm(), 'fields[1].ref', 'name'), 'fields[1].ref'));
  it('rejects unknown properties, naming each', () => {
    const problems = problemsOf(withValue(withValue(fullForm(), 'colour', 'red'), 'fields[0].bogus', 1));
    expect(problems).toEqual([
      { field: 'fields[0].bogus', code: 'UNKNOWN_PROPERTY' },
      { field: 'colour', code: 'UNKNOWN_PROPERTY' },
    ]);
  });
  it('accepts the read-only properties of a form read back', () =>
    accepted({ ...fullForm(), id: 'abc', _links: {}, created_at: 'x', last_updated_at: 'y', self: {} }));
  it('rejects a group inside a group', () =>
    rejectedAt(
      withValue(fullForm(), 'fields[3]', {
        title: 'outer',
        type: 'group',
        properties: { fields: [{ title: 'inner', type: 'group', properties: { fields: [] } }] },
      }),
      'fields[3].properties.fields[0].type',
    ));
});

describe('form type', () => {
  it.each(formTypes.map((type) => [type]))('keeps the type %s', (type) =>
    expect(parseFormDefinition({ title: 't', type }).definition.type).toBe(type),
  );
  it('defaults to quiz, as Typeform does', () =>
    expect(parseFormDefinition({ title: 't' }).definition.type).toBe('quiz'));
  it('rejects a type Typeform does not have', () => rejectedAt({ title: 't', type: 'poll' }, 'type'));
});

describe("Typeform's own form JSON", () => {
  it('holds every field type and is accepted as it is', () => {
    const form = typeformFormWithEveryField(
      (name) => `https://forms.example/images/${name.replace('.png', '')}`,
    );
    const types = new Set((form.fields as Array<{ type: string }>).map((field) => field.type));
    expect([...fieldTypes].filter((type) => !types.has(type))).toEqual([]);
    const { definition } = parseFormDefinition(form);
    expect(definition.type).toBe('score');
    expect(definition.fields.map((field) => field.ref)).toEqual(
      (form.fields as Array<{ ref: string }>).map((field) => field.ref),
    );
  });
});

describe("Typeform's names of the settings we rename", () => {
  const settingsOf = (settings: Record<string, unknown>) =>
    parseFormDefinition({ title: 't', settings }).definition.settings;

  it('are taken and stored under our names, with Typeform switches kept', () => {
    const settings = settingsOf({
      show_typeform_branding: false,
      google_analytics: 'UA-1',
      facebook_pixel: 'px',
      google_tag_manager: 'GTM-1',
      partial_responses_to_all_integrations: true,
      free_form_navigation: false,
      is_trial: true,
      capabilities: { e2e_encryption: { enabled: false, modifiable: false } },
    });
    expect(settings).toMatchObject({
      show_service_branding: false,
      web_analytics: 'UA-1',
      ad_pixel: 'px',
      tag_manager: 'GTM-1',
      partial_responses_to_all_integrations: true,
      free_form_navigation: false,
    });
    for (const name of ['show_typeform_branding', 'google_analytics', 'is_trial', 'capabilities'])
      expect(settings).not.toHaveProperty(name);
  });

  it('agree with our names sent beside them, or are refused', () => {
    expect(settingsOf({ show_typeform_branding: false, show_service_branding: false })).toMatchObject({
      show_service_branding: false,
    });
    rejectedAt({ title: 't', settings: { ad_pixel: 'a', facebook_pixel: 'b' } }, 'settings.facebook_pixel');
    rejectedAt({ title: 't', settings: { show_typeform_branding: 'no' } }, 'settings.show_typeform_branding');
  });
});

describe('field types', () => {
  const examples: Record<(typeof fieldTypes)[number], Record<string, unknown>> = {
    short_text: {},
    long_text: { validations: { max_length: 500 } },
    email: {},
    number: { validations: { min_value: 1, max_value: 10 } },
    multiple_choice: { properties: { allow_multiple_selection: true, choices: [{ label: 'A' }] } },
    dropdown: { properties: { choices: [{ label: 'A' }, { label: 'B' }] } },
    yes_no: {},
    rating: { properties: { steps: 10, shape: 'heart' } },
    opinion_scale: { properties: { steps: 5, start_at_one: true, labels: { left: 'bad', right: 'good' } } },
    date: { properties: { structure: 'DDMMYYYY', separator: '-' } },
    phone_number: { properties: { default_country_code: 'ES' } },
    website: {},
    legal: {},
    statement: { properties: { button_text: 'Continue' } },
    group: { properties: { fields: [{ title: 'Inner', type: 'short_text' }] } },
    picture_choice: {
      properties: {
        supersized: true,
        choices: [{ label: 'A', attachment: { type: 'image', href: 'https://images.example.com/a.png' } }],
      },
      validations: { max_selection: 1 },
    },
    nps: { properties: { labels: { left: 'no', right: 'yes' } } },
    ranking: { properties: { choices: [{ label: 'A' }, { label: 'B' }] } },
    matrix: {
      properties: {
        fields: [{ title: 'Row', type: 'multiple_choice', properties: { choices: [{ label: 'Col' }] } }],
      },
    },
    contact_info: {},
    address: {},
    file_upload: { validations: { required: true } },
    payment: { properties: { currency: 'EUR', price: { type: 'variable', value: 'price' } } },
    calendly: { application: { id: 'calendly', iframe_url: 'https://calendly.example.com/x' } },
    multi_format: {
      properties: { description: 'Answer on video, audio or text' },
      validations: { required: true },
    },
  };
  it.each(fieldTypes.map((type) => [type]))('accepts %s', (type) =>
    accepted({ title: 't', fields: [{ title: 'Q', type, ...examples[type] }] }),
  );
  it('rejects an unknown type', () =>
    rejectedAt({ title: 't', fields: [{ title: 'Q', type: 'slider' }] }, 'fields[0].type'));
  it('rejects choice fields without choices', () =>
    rejectedAt({ title: 't', fields: [{ title: 'Q', type: 'dropdown' }] }, 'fields[0].properties.choices'));
  it('rejects min_value above max_value', () =>
    rejectedAt(
      { title: 't', fields: [{ title: 'Q', type: 'number', validations: { min_value: 5, max_value: 1 } }] },
      'fields[0].validations.min_value',
    ));
  it('rejects a matrix whose rows have different columns', () =>
    rejectedAt(
      {
        title: 't',
        fields: [
          {
            title: 'M',
            type: 'matrix',
            properties: {
              fields: ['A', 'B'].map((column) => ({
                title: column,
                type: 'multiple_choice',
                properties: { choices: [{ label: column }] },
              })),
            },
          },
        ],
      },
      'fields[0].properties.fields[1].properties.choices',
    ));
  it('rejects a matrix row that is not a multiple_choice', () =>
    rejectedAt(
      {
        title: 't',
        fields: [{ title: 'M', type: 'matrix', properties: { fields: [{ title: 'R', type: 'yes_no' }] } }],
      },
      'fields[0].properties.fields[0].type',
    ));
  it('rejects an address line that is not one of its subfield keys', () =>
    rejectedAt(
      {
        title: 't',
        fields: [
          {
            title: 'A',
            type: 'address',
            properties: {
              fields: [{ title: 'x', type: 'short_text', properties: { subfield_key: 'email' } }],
            },
          },
        ],
      },
      'fields[0].properties.fields[0].properties.subfield_key',
    ));
  it('rejects a payment inside a group, as Typeform does', () =>
    rejectedAt(
      {
        title: 't',
        fields: [{ title: 'G', type: 'group', properties: { fields: [{ title: 'P', type: 'payment' }] } }],
      },
      'fields[0].properties.fields[0].type',
    ));
  it('rejects a payment currency Typeform does not charge in', () =>
    rejectedAt(
      { title: 't', fields: [{ title: 'P', type: 'payment', properties: { currency: 'XYZ' } }] },
      'fields[0].properties.currency',
    ));
  it('gives contact_info and address blocks their lines when the client names none', () => {
    const { definition } = parseFormDefinition({
      title: 't',
      fields: [
        { ref: 'c', title: 'C', type: 'contact_info' },
        { ref: 'a', title: 'A', type: 'address' },
      ],
    });
    const lines = definition.fields.map((field) =>
      (field.properties.fields ?? []).map((inner) => [inner.type, inner.properties.subfield_key]),
    );
    expect(lines).toEqual([
      [
        ['short_text', 'first_name'],
        ['short_text', 'last_name'],
        ['email', 'email'],
        ['phone_number', 'phone_number'],
        ['short_text', 'company'],
      ],
      [
        ['short_text', 'address_line1'],
        ['short_text', 'address_line2'],
        ['short_text', 'city'],
        ['short_text', 'state'],
        ['short_text', 'zip'],
        ['short_text', 'country'],
      ],
    ]);
    expect(definition.fields[0].validations).toBeUndefined();
    expect(new Set(allFields(definition.fields).map((f) => f.ref)).size).toBe(13);
  });
  it('bounds the lines of a contact_info block', () =>
    rejectedAt(
      {
        title: 't',
        fields: [
          {
            title: 'C',
            type: 'contact_info',
            properties: { fields: Array.from({ length: 6 }, () => ({ title: 'x', type: 'short_text' })) },
          },
        ],
      },
      'fields[0].properties.fields',
    ));
  it('rejects rating steps out of range', () =>
    rejectedAt(
      { title: 't', fields: [{ title: 'Q', type: 'rating', properties: { steps: 11 } }] },
      'fields[0].properties.steps',
    ));
});
