import { z } from 'zod';
import { buttonModes, thankYouScreenTypes } from './enums';
import { attachmentSchema, layoutSchema } from './media.schema';

// Welcome and thank-you screens (SPEC 2.2, 2.3).

export const welcomeScreenSchema = z.strictObject({
  id: z.string().optional(),
  ref: z.string().min(1).optional(),
  title: z.string({ error: 'title is required' }),
  properties: z
    .strictObject({
      description: z.string().optional(),
      show_button: z.boolean().optional(),
      button_text: z.string().optional(),
    })
    .optional(),
  attachment: attachmentSchema.optional(),
  layout: layoutSchema.optional(),
});
export type WelcomeScreenInput = z.infer<typeof welcomeScreenSchema>;

export const thankYouScreenSchema = z
  .strictObject({
    id: z.string().optional(),
    ref: z.string().min(1).optional(),
    title: z.string({ error: 'title is required' }),
    type: z.enum(thankYouScreenTypes).optional(),
    properties: z
      .strictObject({
        show_button: z.boolean().optional(),
        button_text: z.string().optional(),
        button_mode: z.enum(buttonModes).optional(),
        redirect_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
        share_icons: z.boolean().optional(),
      })
      .optional(),
    attachment: attachmentSchema.optional(),
    layout: layoutSchema.optional(),
  })
  .superRefine((screen, ctx) => {
    // A redirect needs somewhere to go.
    const needsUrl = screen.type === 'url_redirect' || screen.properties?.button_mode === 'redirect';
    if (needsUrl && !screen.properties?.redirect_url) {
      ctx.addIssue({
        code: 'custom',
        path: ['properties', 'redirect_url'],
        message: 'redirect_url is required for a url_redirect screen or the redirect button mode',
      });
    }
  });
export type ThankYouScreenInput = z.infer<typeof thankYouScreenSchema>;
