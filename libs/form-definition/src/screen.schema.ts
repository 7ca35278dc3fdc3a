import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { buttonModes, thankYouScreenTypes } from './enums';
import { attachmentSchema, layoutSchema } from './media.schema';

// Welcome and thank-you screens.

export const welcomeScreenSchema = z.strictObject({
  id: boundedText(inputLimits.id).optional(),
  ref: boundedText(inputLimits.id).min(1).optional(),
  title: boundedText(inputLimits.text, { error: 'title is required' }),
  properties: z
    .strictObject({
      description: boundedText(inputLimits.text).optional(),
      show_button: z.boolean().optional(),
      button_text: boundedText(inputLimits.text).optional(),
    })
    .optional(),
  attachment: attachmentSchema.optional(),
  layout: layoutSchema.optional(),
});
export type WelcomeScreenInput = z.infer<typeof welcomeScreenSchema>;

export const thankYouScreenSchema = z
  .strictObject({
    id: boundedText(inputLimits.id).optional(),
    ref: boundedText(inputLimits.id).min(1).optional(),
    title: boundedText(inputLimits.text, { error: 'title is required' }),
    type: z.enum(thankYouScreenTypes).optional(),
    properties: z
      .strictObject({
        show_button: z.boolean().optional(),
        button_text: boundedText(inputLimits.text).optional(),
        button_mode: z.enum(buttonModes).optional(),
        redirect_url: z
          .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
          .max(inputLimits.url)
          .optional(),
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
