import { randomUUID } from 'node:crypto';
import { newPublicId } from '@formline/ids';
import { compositeFieldTypes } from './enums';
import type { FieldInput, ChoiceInput } from './field.schema';
import type { FormInput } from './form-input.schema';
import {
  allFields,
  type Choice,
  type Field,
  type FormDefinition,
  type ThankYouScreen,
  type WelcomeScreen,
} from './form-definition';
import { withAttachmentDefaults, type Attachment } from './media.schema';
import { typeformSwitches } from './settings.schema';
import type { ThankYouScreenInput, WelcomeScreenInput } from './screen.schema';

// Turns a validated client definition into the stored one: defaults filled,
// ids and refs generated where absent. Ids stay stable across updates: a field
// keeps its id when the client sends that id back, or the ref of a field of
// the previous version; an id the form never had is replaced, so ids are
// always ours.

export interface IdSource {
  id(): string;
  ref(): string;
}

export const randomIds: IdSource = { id: () => newPublicId(12), ref: () => randomUUID() };

// The ending every form has, as Typeform adds it: the target of a respondent
// who reaches no other ending.
export const defaultThankYouScreenRef = 'default_tys';

export function normalizeForm(
  input: FormInput,
  previous?: FormDefinition,
  ids: IdSource = randomIds,
): FormDefinition {
  const language = input.language ?? 'en';
  const stable = new StableIds(previous, ids);
  const fields = (input.fields ?? []).map((field) => normalizeField(field, stable));
  const thankYouScreens = (input.thankyou_screens ?? []).map((screen) => normalizeThankYou(screen, stable));
  if (!thankYouScreens.some((screen) => screen.ref === defaultThankYouScreenRef)) {
    thankYouScreens.push(defaultThankYouScreen(stable));
  }
  const settings = input.settings ?? {};
  const showNumberOfSubmissions = settings.show_number_of_submissions;
  return {
    title: input.title,
    type: input.type ?? 'quiz',
    language,
    fields,
    hidden: input.hidden ?? [],
    variables: { score: input.variables?.score ?? 0, price: input.variables?.price ?? 0 },
    welcome_screens: (input.welcome_screens ?? []).map((screen) => normalizeWelcome(screen, stable)),
    thankyou_screens: thankYouScreens,
    logic: (input.logic ?? []).map((jump) => ({ type: jump.type, ref: jump.ref, actions: jump.actions })),
    ...(input.theme ? { theme: input.theme } : {}),
    settings: compact({
      language: settings.language ?? language,
      is_public: settings.is_public ?? true,
      autosave_progress: settings.autosave_progress ?? true,
      progress_bar: settings.progress_bar ?? 'proportion',
      show_progress_bar: settings.show_progress_bar ?? true,
      show_service_branding: settings.show_service_branding ?? settings.show_typeform_branding ?? true,
      show_time_to_complete: settings.show_time_to_complete ?? showNumberOfSubmissions !== true,
      show_number_of_submissions: showNumberOfSubmissions,
      show_cookie_consent: settings.show_cookie_consent,
      show_question_number: settings.show_question_number ?? true,
      show_key_hint_on_choices: settings.show_key_hint_on_choices ?? true,
      hide_navigation: settings.hide_navigation,
      meta: compact({
        title: settings.meta?.title,
        allow_indexing: settings.meta?.allow_indexing ?? true,
        description: settings.meta?.description,
        image: settings.meta?.image,
      }),
      redirect_after_submit_url: settings.redirect_after_submit_url,
      // Absent unless set: a form without it reads as Typeform's would.
      embed_origins: settings.embed_origins?.length ? [...new Set(settings.embed_origins)] : undefined,
      web_analytics: settings.web_analytics ?? settings.google_analytics,
      ad_pixel: settings.ad_pixel ?? settings.facebook_pixel,
      tag_manager: settings.tag_manager ?? settings.google_tag_manager,
      ...Object.fromEntries(typeformSwitches.map((name) => [name, settings[name]])),
      milestones: settings.milestones?.map((milestone) => ({ field_ref: milestone.field_ref })),
    }),
    cui_settings: compact({
      avatar: input.cui_settings?.avatar,
      is_typing_emulation_disabled: input.cui_settings?.is_typing_emulation_disabled ?? false,
      typing_emulation_speed: input.cui_settings?.typing_emulation_speed,
    }),
    // Messages are written through their own endpoint; a new version of the form keeps them.
    ...(previous?.messages ? { messages: previous.messages } : {}),
  };
}

// Per-type defaults of properties, as Typeform fills them.
const propertyDefaults: Partial<Record<Field['type'], Record<string, unknown>>> = {
  multiple_choice: {
    randomize: false,
    allow_multiple_selection: false,
    allow_other_choice: false,
    vertical_alignment: true,
  },
  dropdown: { randomize: false, alphabetical_order: false },
  rating: { steps: 5, shape: 'star' },
  opinion_scale: { steps: 11, start_at_one: false },
  date: { structure: 'MMDDYYYY', separator: '/' },
  picture_choice: {
    randomize: false,
    allow_multiple_selection: false,
    allow_other_choice: false,
    supersized: false,
    show_labels: true,
  },
  ranking: { randomize: false },
  matrix: { randomize: false },
  payment: { currency: 'USD', price: { type: 'variable', value: 'price' }, show_button: true },
};
const withoutValidations = new Set<Field['type']>(['statement', 'group', ...compositeFieldTypes]);

// The lines a contact_info or address block has when the client names none.
const defaultSubfields: Partial<Record<Field['type'], Array<{ key: string; type: string; title: string }>>> =
  {
    contact_info: [
      { key: 'first_name', type: 'short_text', title: 'First name' },
      { key: 'last_name', type: 'short_text', title: 'Last name' },
      { key: 'email', type: 'email', title: 'Email' },
      { key: 'phone_number', type: 'phone_number', title: 'Phone number' },
      { key: 'company', type: 'short_text', title: 'Company' },
    ],
    address: [
      { key: 'address_line1', type: 'short_text', title: 'Address' },
      { key: 'address_line2', type: 'short_text', title: 'Address line 2' },
      { key: 'city', type: 'short_text', title: 'City/Town' },
      { key: 'state', type: 'short_text', title: 'State/Region/Province' },
      { key: 'zip', type: 'short_text', title: 'Zip/Post code' },
      { key: 'country', type: 'short_text', title: 'Country' },
    ],
  };

function normalizeField(input: FieldInput, stable: StableIds): Field {
  const { id, ref } = stable.forField(input.id, input.ref);
  const given = { ...input.properties } as Record<string, unknown>;
  const properties: Field['properties'] = { ...propertyDefaults[input.type], ...given };
  const inner = innerFieldsOf(input);
  if (inner) properties.fields = inner.map((field) => normalizeField(field, stable));
  if (Array.isArray(given.choices)) {
    const previousChoices = stable.previousChoices(id);
    properties.choices = (given.choices as ChoiceInput[]).map((choice) =>
      normalizeChoice(choice, previousChoices, stable.ids),
    );
  }
  const validations = 'validations' in input ? input.validations : undefined;
  return compact({
    id,
    title: input.title,
    ref,
    properties,
    validations: withoutValidations.has(input.type) ? undefined : { required: false, ...validations },
    type: input.type,
    attachment: input.attachment && withAttachmentDefaults(input.attachment),
    layout: input.layout && withLayoutDefaults(input.layout),
    // Calendly's application block: kept and given back (the page links its scheduler).
    application: 'application' in input ? input.application : undefined,
  });
}

// The inner fields of a group or composite block, the default lines when a
// contact_info or address block names none.
function innerFieldsOf(input: FieldInput): FieldInput[] | undefined {
  const given = (input.properties as { fields?: FieldInput[] } | undefined)?.fields;
  if (given) return given;
  const defaults = defaultSubfields[input.type];
  return defaults?.map(
    (line) =>
      ({
        title: line.title,
        type: line.type,
        properties: { subfield_key: line.key },
        validations: { required: false },
      }) as FieldInput,
  );
}

function normalizeChoice(input: ChoiceInput, previous: readonly Choice[], ids: IdSource): Choice {
  const match =
    previous.find((choice) => choice.id === input.id) ?? previous.find((choice) => choice.ref === input.ref);
  return compact({
    id: match?.id ?? ids.id(),
    ref: input.ref ?? match?.ref ?? ids.ref(),
    label: input.label,
    attachment: input.attachment && withAttachmentDefaults(input.attachment),
  });
}

function normalizeWelcome(input: WelcomeScreenInput, stable: StableIds): WelcomeScreen {
  const { id, ref } = stable.forScreen(input.id, input.ref);
  return compact({
    id,
    ref,
    title: input.title,
    properties: { show_button: true, button_text: 'Start', ...input.properties },
    attachment: input.attachment && withAttachmentDefaults(input.attachment),
    layout: input.layout && withLayoutDefaults(input.layout),
  });
}

const thankYouPropertyDefaults = {
  show_button: true,
  share_icons: true,
  button_mode: 'reload',
  button_text: 'Again',
};
const defaultThankYouProperties = { show_button: false, share_icons: false, button_mode: 'default_redirect' };

function normalizeThankYou(input: ThankYouScreenInput, stable: StableIds): ThankYouScreen {
  const { id, ref } = stable.forScreen(input.id, input.ref);
  const defaults = ref === defaultThankYouScreenRef ? defaultThankYouProperties : thankYouPropertyDefaults;
  return compact({
    id,
    ref,
    title: input.title,
    type: input.type ?? 'thankyou_screen',
    properties: { ...defaults, ...input.properties },
    attachment: input.attachment && withAttachmentDefaults(input.attachment),
    layout: input.layout && withLayoutDefaults(input.layout),
  });
}

function defaultThankYouScreen(stable: StableIds): ThankYouScreen {
  return {
    id: stable.forScreen(undefined, defaultThankYouScreenRef).id,
    ref: defaultThankYouScreenRef,
    title: 'Thanks for completing this form!',
    type: 'thankyou_screen',
    properties: defaultThankYouProperties,
  };
}

function withLayoutDefaults<L extends { attachment?: Attachment }>(layout: L): L {
  return layout.attachment ? { ...layout, attachment: withAttachmentDefaults(layout.attachment) } : layout;
}

// Ids from the previous version of the form, matched by id first, then by ref.
class StableIds {
  private readonly fields: Field[];
  private readonly screens: Array<{ id: string; ref: string }>;
  // An id handed out once in this version is never handed out twice.
  private readonly used = new Set<string>();

  constructor(
    previous: FormDefinition | undefined,
    readonly ids: IdSource,
  ) {
    this.fields = previous ? allFields(previous.fields) : [];
    this.screens = previous ? [...previous.welcome_screens, ...previous.thankyou_screens] : [];
  }

  forField(id: string | undefined, ref: string | undefined): { id: string; ref: string } {
    return this.match(this.fields, id, ref);
  }

  forScreen(id: string | undefined, ref: string | undefined): { id: string; ref: string } {
    return this.match(this.screens, id, ref);
  }

  previousChoices(fieldId: string): Choice[] {
    return this.fields.find((field) => field.id === fieldId)?.properties.choices ?? [];
  }

  private match(previous: ReadonlyArray<{ id: string; ref: string }>, id?: string, ref?: string) {
    const found =
      (id && previous.find((item) => item.id === id && !this.used.has(item.id))) ||
      (ref && previous.find((item) => item.ref === ref && !this.used.has(item.id)));
    const stableId = found ? found.id : this.ids.id();
    this.used.add(stableId);
    return { id: stableId, ref: ref ?? (found ? found.ref : this.ids.ref()) };
  }
}

// Drops undefined properties so that absent settings are absent, not null.
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
