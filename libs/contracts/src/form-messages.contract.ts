import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Form messages (GET/PUT /forms/{form_id}/messages): the texts of the form's
// page that its owner overrides, keyed as Typeform keys them, each at most as
// long as Typeform allows (128 characters where its reference names no limit).
export const formMessageLimits = {
  'label.buttonHint.default': 28,
  'label.buttonHint.longtext': 28,
  'label.warning.connection': 128,
  'label.buttonNoAnswer.default': 100,
  'label.warning.correction': 128,
  'block.payment.cardNameTitle': 128,
  'block.payment.cardNumberTitle': 128,
  'block.payment.cvcDescription': 128,
  'block.payment.cvcNumberTitle': 128,
  'block.shortText.placeholder': 100,
  'label.error.emailAddress': 64,
  'label.error.expiryMonthTitle': 128,
  'label.error.expiryYearTitle': 128,
  'label.warning.fallbackAlert': 128,
  'block.fileUpload.choose': 34,
  'block.fileUpload.drag': 35,
  'block.fileUpload.uploadingProgress': 128,
  'label.error.sizeLimit': 128,
  'label.warning.formUnavailable': 128,
  'label.error.incompleteForm': 42,
  'label.hint.key': 100,
  'block.legal.reject': 128,
  'block.legal.accept': 128,
  'label.error.maxValue': 64,
  'label.error.maxLength': 64,
  'label.error.minValue': 64,
  'label.error.range': 64,
  'block.multipleChoice.hint': 45,
  'label.error.mustEnter': 64,
  'label.error.mustSelect': 64,
  'label.no.shortcut': 1,
  'label.no.default': 128,
  'block.dropdown.hint': 64,
  'block.multipleChoice.other': 100,
  'label.progress.percent': 100,
  'label.progress.proportion': 100,
  'label.error.required': 64,
  'label.preview': 64,
  'label.button.review': 100,
  'label.error.server': 128,
  'label.action.share': 100,
  'label.button.submit': 100,
  'label.warning.success': 128,
  'label.button.ok': 100,
  'label.error.mustAccept': 64,
  'block.longtext.hint': 128,
  'block.dropdown.placeholder': 100,
  'block.dropdown.placeholderTouch': 100,
  'label.error.url': 64,
  'label.yes.shortcut': 1,
  'label.yes.default': 128,
} as const;
export type FormMessageKey = keyof typeof formMessageLimits;

// Typeform forbids HTML tags in messages (they may use *bold* and _italic_).
const htmlTag = /<\/?[a-z!]/i;
const message = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => !htmlTag.test(text) && !text.includes('\0'), { error: 'HTML tags are forbidden' });

export const formMessagesSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(formMessageLimits).map(([key, max]) => [key, message(max).optional()]),
  ) as { [K in FormMessageKey]: z.ZodOptional<z.ZodString> },
);
export type FormMessages = Partial<Record<FormMessageKey, string>>;

const ownedForm = { accountId: z.string().min(1), formId: z.string().min(1) };
const messagesReply = z.record(z.string(), z.string());

export const getFormMessages = defineRpc({
  subject: Subjects.formsFormMessagesGet,
  request: z.object(ownedForm),
  reply: messagesReply,
});

// PUT replaces every message: those left out read their defaults again.
export const replaceFormMessages = defineRpc({
  subject: Subjects.formsFormMessagesReplace,
  request: z.object({ ...ownedForm, messages: z.unknown() }),
  reply: z.object({ replaced: z.literal(true) }),
});
