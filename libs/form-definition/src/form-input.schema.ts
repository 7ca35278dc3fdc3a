import { boundedText, inputLimits, isPrototypeKey } from '@formline/input';
import { z } from 'zod';
import { formTypes, languages } from './enums';
import { fieldSchema } from './field.schema';
import { logicJumpSchema } from './logic.schema';
import { thankYouScreenSchema, welcomeScreenSchema } from './screen.schema';
import { cuiSettingsSchema, settingsSchema } from './settings.schema';

// A form definition as a client sends it to create or replace a form.
// Unknown properties are rejected (a typo must not be silently dropped), except
// the read-only ones a client gets back from GET: a form read can be sent back
// as it is, and those are ignored.
export const formInputSchema = z.strictObject({
  title: boundedText(inputLimits.formTitle, { error: 'title is required' }).min(1, 'title is required'),
  type: z.enum(formTypes).optional(),
  language: z.enum(languages).optional(),
  fields: z.array(fieldSchema).max(inputLimits.fields).optional(),
  hidden: z
    .array(
      boundedText(inputLimits.name)
        .regex(/^[a-z0-9_]+$/, 'lowercase letters, digits and _ only')
        .refine((name) => !isPrototypeKey(name), {
          error: 'a hidden field may not be named __proto__, constructor or prototype',
        }),
    )
    .max(inputLimits.hidden)
    .optional(),
  variables: z.strictObject({ score: z.int().optional(), price: z.number().optional() }).optional(),
  welcome_screens: z.array(welcomeScreenSchema).max(inputLimits.screens).optional(),
  thankyou_screens: z.array(thankYouScreenSchema).max(inputLimits.screens).optional(),
  logic: z.array(logicJumpSchema).max(inputLimits.logic).optional(),
  theme: z.strictObject({ href: z.url({ protocol: /^https?$/ }).max(inputLimits.url) }).optional(),
  workspace: z.strictObject({ href: z.url({ protocol: /^https?$/ }).max(inputLimits.url) }).optional(),
  settings: settingsSchema.optional(),
  cui_settings: cuiSettingsSchema.optional(),
  // Read-only, ignored on input.
  id: boundedText(inputLimits.id).optional(),
  created_at: boundedText(inputLimits.name).optional(),
  last_updated_at: boundedText(inputLimits.name).optional(),
  published_at: boundedText(inputLimits.name).optional(),
  self: z.unknown().optional(),
  _links: z.unknown().optional(),
});
export type FormInput = z.infer<typeof formInputSchema>;
