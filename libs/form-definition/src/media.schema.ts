import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { attachmentTypes, layoutPlacements, layoutTypes, videoHosts, videoScales } from './enums';

// Attachments and layouts, shared by screens and fields.

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(inputLimits.url);

export const attachmentSchema = z
  .strictObject({
    type: z.enum(attachmentTypes),
    href: httpUrl,
    scale: z
      .number()
      .refine((value) => (videoScales as readonly number[]).includes(value), {
        error: 'must be 0.4, 0.6, 0.8 or 1',
      })
      .optional(),
    properties: z.strictObject({ description: boundedText(inputLimits.text).optional() }).optional(),
  })
  .superRefine((attachment, ctx) => {
    if (attachment.type !== 'video') {
      if (attachment.scale !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['scale'], message: 'scale applies only to videos' });
      }
      return;
    }
    const host = new URL(attachment.href).hostname;
    if (!(videoHosts as readonly string[]).includes(host)) {
      ctx.addIssue({
        code: 'custom',
        path: ['href'],
        message: `a video must be on ${videoHosts.join(', ')}`,
      });
    }
  });
export type Attachment = z.infer<typeof attachmentSchema>;

const viewportOverrideSchema = z.strictObject({
  type: z.enum(layoutTypes).optional(),
  placement: z.enum(layoutPlacements).optional(),
});

export const layoutSchema = z.strictObject({
  type: z.enum(layoutTypes),
  placement: z.enum(layoutPlacements).optional(),
  attachment: attachmentSchema.optional(),
  viewport_overrides: z
    .strictObject({ small: viewportOverrideSchema.optional(), large: viewportOverrideSchema.optional() })
    .optional(),
});
export type Layout = z.infer<typeof layoutSchema>;

// Fills the documented default of a video's scale (0.6).
export function withAttachmentDefaults(attachment: Attachment): Attachment {
  return attachment.type === 'video' ? { ...attachment, scale: attachment.scale ?? 0.6 } : attachment;
}
