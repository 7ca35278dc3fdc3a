import { z } from 'zod';
import { pageOf, pageRequestSchema } from './pagination';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// The form resource as a client editing the form sees it. Its model
// and validation live in libs/form-definition; over the wire it is JSON.
export const formResourceSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  _links: z.object({ display: z.string(), responses: z.string() }),
});
export type FormResource = z.output<typeof formResourceSchema>;

// A form with its version, which the gateway turns into an ETag.
const versionedForm = z.object({ form: formResourceSchema, version: z.int() });
export type VersionedForm = z.output<typeof versionedForm>;

export const formSummarySchema = z.looseObject({ id: z.string(), title: z.string() });
export type FormSummary = z.output<typeof formSummarySchema>;

const owned = { accountId: z.string().min(1) };
const ownedForm = { ...owned, formId: z.string().min(1) };
// For If-Match: the version the client last read; absent means last write wins.
const expectedVersion = z.int().optional();

export const createForm = defineRpc({
  subject: Subjects.formsFormCreate,
  request: z.object({ ...owned, definition: z.unknown() }),
  reply: versionedForm,
});

export const formSortFields = ['created_at', 'last_updated_at'] as const;
export const listForms = defineRpc({
  subject: Subjects.formsFormList,
  request: pageRequestSchema.extend({
    ...owned,
    search: z.string().optional(),
    workspaceId: z.string().optional(),
    sortBy: z.enum(formSortFields),
    orderBy: z.enum(['asc', 'desc']),
  }),
  reply: pageOf(formSummarySchema),
});

export const getForm = defineRpc({
  subject: Subjects.formsFormGet,
  request: z.object(ownedForm),
  reply: versionedForm,
});

export const replaceForm = defineRpc({
  subject: Subjects.formsFormReplace,
  request: z.object({ ...ownedForm, definition: z.unknown(), expectedVersion }),
  reply: versionedForm,
});

export const patchForm = defineRpc({
  subject: Subjects.formsFormPatch,
  request: z.object({ ...ownedForm, operations: z.unknown(), expectedVersion }),
  reply: z.object({ version: z.int() }),
});

export const deleteForm = defineRpc({
  subject: Subjects.formsFormDelete,
  request: z.object(ownedForm),
  reply: z.object({ deleted: z.literal(true) }),
});
