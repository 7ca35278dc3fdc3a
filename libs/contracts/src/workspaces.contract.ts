import { z } from 'zod';
import { pageOf, pageRequestSchema } from './pagination';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// A workspace as Typeform's Create API shows it.
export const workspaceResourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  default: z.boolean(),
  shared: z.boolean(),
  account_id: z.string(),
  members: z.array(z.object({ name: z.string(), email: z.string(), role: z.enum(['owner', 'member']) })),
  forms: z.object({ count: z.int(), href: z.string() }),
  self: z.object({ href: z.string() }),
});
export type WorkspaceResource = z.output<typeof workspaceResourceSchema>;

// The body of POST /workspaces, validated by the global service (and the
// document PATCH /workspaces/{id} must leave behind).
export const workspaceBodySchema = z.strictObject({
  name: z.string({ error: 'name is required' }).trim().min(1).max(255),
});

// The value of a JSON Patch operation on /members, as Typeform's SDK sends it
// (`{op: 'add' | 'remove', path: '/members', value: {email}}`), an add with the
// member's role as Typeform's reference shows it (`{email, role: 'owner'}`).
export const workspaceMemberValueSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(3).max(254),
  role: z.enum(['owner', 'member']).optional(),
});

const owned = { accountId: z.string().min(1) };
const ownedWorkspace = { ...owned, workspaceId: z.string().min(1) };

export const createWorkspace = defineRpc({
  subject: Subjects.formsWorkspaceCreate,
  request: z.object({ ...owned, body: z.unknown() }),
  reply: workspaceResourceSchema,
});

export const listWorkspaces = defineRpc({
  subject: Subjects.formsWorkspaceList,
  request: pageRequestSchema.extend({ ...owned, search: z.string().optional() }),
  reply: pageOf(workspaceResourceSchema),
});

export const getWorkspace = defineRpc({
  subject: Subjects.formsWorkspaceGet,
  request: z.object(ownedWorkspace),
  reply: workspaceResourceSchema,
});

export const patchWorkspace = defineRpc({
  subject: Subjects.formsWorkspacePatch,
  request: z.object({ ...ownedWorkspace, operations: z.unknown() }),
  reply: z.object({ patched: z.literal(true) }),
});

export const deleteWorkspace = defineRpc({
  subject: Subjects.formsWorkspaceDelete,
  request: z.object(ownedWorkspace),
  reply: z.object({ deleted: z.literal(true) }),
});
