import { z } from 'zod';
import { pageOf } from './pagination';
import { regionSchema } from './region';
import { defineBatchRpc, defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// A response as Typeform's Responses API shows it; its full shape is built by
// the responses service (answers keyed by field, hidden, calculated, ending).
export const responseResourceSchema = z.looseObject({
  token: z.string(),
  response_id: z.string(),
  landed_at: z.string(),
  submitted_at: z.string(),
});
export type ResponseResource = z.output<typeof responseResourceSchema>;

const submissionCall = z.object({
  formId: z.string().min(1),
  body: z.unknown(),
  // Makes a retried submission count once (header Idempotency-Key).
  idempotencyKey: z.string().min(1).max(255).optional(),
  metadata: z.object({ user_agent: z.string().optional(), referer: z.string().optional() }),
});

// The form as the gateway found it (forms.form.snapshot), so that the
// service need not ask for it again.
const submittedFormSnapshot = z.object({
  accountId: z.string(),
  region: regionSchema,
  definition: z.unknown(),
});

export const submitResponse = defineRpc({
  subject: Subjects.responsesSubmissionCreate,
  // Without `form`, the service asks for the form's snapshot itself.
  request: submissionCall.extend({ form: submittedFormSnapshot.optional() }),
  // `replayed`: the key was seen before and this is the response stored then.
  reply: z.object({ response: responseResourceSchema, replayed: z.boolean() }),
});

// The submissions a gateway sends together: each is `submitResponse` without
// its form, whose snapshot travels once per message under the form's id.
export const submitResponses = defineBatchRpc({
  subject: Subjects.responsesSubmissionCreateBatch,
  item: submissionCall,
  shared: submittedFormSnapshot,
  reply: submitResponse.reply,
});

// Saves a respondent's progress before the final submit (a partial response):
// the same request shape as a submission; the body names its progress key.
// `changed`: false when the save repeated what was stored (no new event), or
// when the response was already completed (then it is left as it was).
export const saveProgress = defineRpc({
  subject: Subjects.responsesSubmissionProgress,
  request: submitResponse.request,
  reply: z.object({ response: responseResourceSchema, changed: z.boolean() }),
});

// The saves a gateway sends together, as `submitResponses` does submissions.
export const saveProgresses = defineBatchRpc({
  subject: Subjects.responsesSubmissionProgressBatch,
  item: submissionCall,
  shared: submittedFormSnapshot,
  reply: saveProgress.reply,
});

export const responseTypes = ['completed', 'partial', 'started'] as const;
export type ResponseType = (typeof responseTypes)[number];
export const responseSortFields = ['submitted_at', 'landed_at'] as const;

// The Responses API's query parameters, parsed by the gateway.
export const responseQuerySchema = z.object({
  pageSize: z.int().min(1).max(1000),
  since: z.iso.datetime().optional(),
  until: z.iso.datetime().optional(),
  after: z.string().optional(),
  before: z.string().optional(),
  includedResponseIds: z.array(z.string()).optional(),
  excludedResponseIds: z.array(z.string()).optional(),
  responseTypes: z.array(z.enum(responseTypes)).optional(),
  sort: z.object({ field: z.enum(responseSortFields), order: z.enum(['asc', 'desc']) }),
  query: z.string().optional(),
  fields: z.array(z.string()).optional(),
  // Only responses that answered at least one of these questions (ids or refs).
  answeredFields: z.array(z.string()).optional(),
});
export type ResponseQuery = z.output<typeof responseQuerySchema>;

export const listResponses = defineRpc({
  subject: Subjects.responsesResponseList,
  request: z.object({ accountId: z.string().min(1), formId: z.string().min(1), query: responseQuerySchema }),
  reply: pageOf(responseResourceSchema),
});

export const deleteResponses = defineRpc({
  subject: Subjects.responsesResponseDelete,
  request: z.object({
    accountId: z.string().min(1),
    formId: z.string().min(1),
    responseIds: z.array(z.string()).min(1),
  }),
  reply: z.object({ deleted: z.int() }),
});

// Records a respondent's upload (its bytes are about to go to the region's
// file store): a submission may then answer the question with it, and an
// upload no response holds is pruned with its bytes after a while.
export const recordUpload = defineRpc({
  subject: Subjects.responsesUploadRecord,
  request: z.object({
    formId: z.string().min(1),
    fieldId: z.string().min(1),
    fileName: z.string().min(1).max(200),
    size: z.int().min(1),
  }),
  reply: z.object({ recorded: z.literal(true) }),
});
