import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { languages, milestoneReasons, milestoneStatuses, progressBars, typingEmulationSpeeds } from './enums';

// Form settings (SPEC 2.6) and conversational settings (SPEC 2.7).

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(inputLimits.url);

// status and reason are informative: accepted so a form read can be written
// back unchanged, then ignored and computed again on output.
const milestoneSchema = z.strictObject({
  field_ref: boundedText(inputLimits.id).min(1),
  status: z.enum(milestoneStatuses).optional(),
  reason: z.enum(milestoneReasons).optional(),
});

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
    web_analytics: boundedText(inputLimits.snippet).optional(),
    ad_pixel: boundedText(inputLimits.snippet).optional(),
    tag_manager: boundedText(inputLimits.snippet).optional(),
    // SPEC 7.2 and 8.1: at most one milestone per form.
    milestones: z.array(milestoneSchema).max(1, 'a form has at most one milestone').optional(),
  })
  .superRefine((settings, ctx) => {
    // Both default to showing; setting both true explicitly asks for two things
    // SPEC calls mutually exclusive.
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
