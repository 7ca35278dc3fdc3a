import { z } from 'zod';
import { languages } from './enums';
import { fieldSchema } from './field.schema';
import { logicJumpSchema } from './logic.schema';
import { thankYouScreenSchema, welcomeScreenSchema } from './screen.schema';
import { cuiSettingsSchema, settingsSchema } from './settings.schema';

// A form definition as a client sends it to create or replace a form.
// Unknown properties are rejected (a typo must not be silently dropped), except
// the read-only ones a client gets back from GET: a form read can be sent back
// as it is, and those are ignored.
export const formInputSchema = z.strictObject({
  title: z.string({ error: 'title is required' }).min(1, 'title is required'),
  language: z.enum(languages).optional(),
  fields: z.array(fieldSchema).optional(),
  hidden: z.array(z.string().regex(/^[a-z0-9_]+$/, 'lowercase letters, digits and _ only')).optional(),
  variables: z.strictObject({ score: z.int().optional(), price: z.number().optional() }).optional(),
  welcome_screens: z.array(welcomeScreenSchema).optional(),
  thankyou_screens: z.array(thankYouScreenSchema).optional(),
  logic: z.array(logicJumpSchema).optional(),
  theme: z.strictObject({ href: z.url({ protocol: /^https?$/ }) }).optional(),
  workspace: z.strictObject({ href: z.url({ protocol: /^https?$/ }) }).optional(),
  settings: settingsSchema.optional(),
  cui_settings: cuiSettingsSchema.optional(),
  // Read-only, ignored on input.
  id: z.string().optional(),
  type: z.string().optional(),
  created_at: z.string().optional(),
  last_updated_at: z.string().optional(),
  published_at: z.string().optional(),
  self: z.unknown().optional(),
  _links: z.unknown().optional(),
});
export type FormInput = z.infer<typeof formInputSchema>;
