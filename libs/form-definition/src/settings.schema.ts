import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { embedOriginsSchema } from './embed-origins.schema';
import { languages, milestoneReasons, milestoneStatuses, progressBars, typingEmulationSpeeds } from './enums';

// Form settings (`settings`) and conversational settings (`cui_settings`).

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(inputLimits.url);

// status and reason are informative: accepted so a form read can be written
// back unchanged, then ignored and computed again on output.
const milestoneSchema = z.strictObject({
  field_ref: boundedText(inputLimits.id).min(1),
  status: z.enum(milestoneStatuses).optional(),
  reason: z.enum(milestoneReasons).optional(),
});

// Our form settings rename four of Typeform's. A form copied from Typeform
// carries Typeform's names: they are taken too, and stored under ours.
export const typeformSettingNames = {
  show_typeform_branding: 'show_service_branding',
  google_analytics: 'web_analytics',
  facebook_pixel: 'ad_pixel',
  google_tag_manager: 'tag_manager',
} as const;

// Typeform's other switches a form read from Typeform carries: kept with the
// form and given back as they were sent (none changes what the page does,
// except partial_responses_to_all_integrations, read by the webhooks service).
export const typeformSwitches = [
  'are_uploads_public',
  'free_form_navigation',
  'hide_required_indicator',
  'use_lead_qualification',
  'pro_subdomain_enabled',
  'auto_translate',
  'partial_responses_to_all_integrations',
] as const;

export const settingsSchema = z
  .strictObject({
    language: z.enum(languages).optional(),
    is_public: z.boolean().optional(),
    autosave_progress: z.boolean().optional(),
    progress_bar: z.enum(progressBars).optional(),
    show_progress_bar: z.boolean().optional(),
    show_service_branding: z.boolean().optional(),
    show_time_to_complete: z.boolean().optional(),
    show_number_of_submissions: z.boolean().optional(),
    show_cookie_consent: z.boolean().optional(),
    show_question_number: z.boolean().optional(),
    show_key_hint_on_choices: z.boolean().optional(),
    hide_navigation: z.boolean().optional(),
    meta: z
      .strictObject({
        title: boundedText(inputLimits.text).optional(),
        allow_indexing: z.boolean().optional(),
        description: boundedText(inputLimits.text).optional(),
        image: z.strictObject({ href: httpUrl }).optional(),
      })
      .optional(),
    redirect_after_submit_url: httpUrl.optional(),
    // Ours, not Typeform's: the sites that may frame the respondent page
    // (embed-origins.schema.ts). Given back only when set.
    embed_origins: embedOriginsSchema.optional(),
    web_analytics: boundedText(inputLimits.snippet).optional(),
    ad_pixel: boundedText(inputLimits.snippet).optional(),
    tag_manager: boundedText(inputLimits.snippet).optional(),
    // At most one milestone (partial submit point) per form; more is refused.
    milestones: z.array(milestoneSchema).max(1, 'a form has at most one milestone').optional(),
    // Typeform's names of the four settings above.
    show_typeform_branding: z.boolean().optional(),
    google_analytics: boundedText(inputLimits.snippet).optional(),
    facebook_pixel: boundedText(inputLimits.snippet).optional(),
    google_tag_manager: boundedText(inputLimits.snippet).optional(),
    ...(Object.fromEntries(typeformSwitches.map((name) => [name, z.boolean().optional()])) as Record<
      (typeof typeformSwitches)[number],
      z.ZodOptional<z.ZodBoolean>
    >),
    // Read-only in Typeform (its plan and its account's capabilities): accepted
    // so a form read from Typeform can be sent as it is, and ignored.
    is_trial: z.boolean().optional(),
    capabilities: z
      .strictObject({
        e2e_encryption: z
          .strictObject({ enabled: z.boolean().optional(), modifiable: z.boolean().optional() })
          .optional(),
      })
      .optional(),
  })
  .superRefine((settings, ctx) => {
    for (const [typeformName, name] of Object.entries(typeformSettingNames)) {
      const theirs = settings[typeformName as keyof typeof typeformSettingNames];
      const ours = settings[name];
      if (theirs !== undefined && ours !== undefined && theirs !== ours) {
        ctx.addIssue({
          code: 'custom',
          path: [typeformName],
          message: `${typeformName} is Typeform's name of ${name}; the two differ`,
        });
      }
    }
    // Both default to showing; setting both true explicitly asks for two things
    // that cannot be shown together.
    if (settings.show_time_to_complete === true && settings.show_number_of_submissions === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['show_number_of_submissions'],
        message: 'show_time_to_complete and show_number_of_submissions are mutually exclusive',
      });
    }
  });
export type SettingsInput = z.infer<typeof settingsSchema>;

export const cuiSettingsSchema = z.strictObject({
  avatar: httpUrl.optional(),
  is_typing_emulation_disabled: z.boolean().optional(),
  typing_emulation_speed: z.enum(typingEmulationSpeeds).optional(),
});
export type CuiSettingsInput = z.infer<typeof cuiSettingsSchema>;
