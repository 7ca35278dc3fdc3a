import { z } from 'zod';
import { Subjects } from './subjects';

// What the global service announces, after the change is committed, so that
// the gateways of its region drop what they cached: on core NATS, not
// JetStream. A missed announcement costs at most the cache's lifetime
// (READ_CACHE_TTL_MS), never data; the other region hears none (regions share
// no NATS) and relies on that lifetime alone.
export interface ChangeAnnouncement<S extends z.ZodType> {
  subject: string;
  payload: S;
}

// Some token of this account was revoked (a personal token, an OAuth access
// token, a grant, or an application with all its grants).
export const tokensRevoked = {
  subject: Subjects.accountsTokensRevoked,
  payload: z.object({ accountId: z.string().min(1) }),
} satisfies ChangeAnnouncement<z.ZodType>;

// The form was replaced, patched or deleted.
export const formChanged = {
  subject: Subjects.formsFormChanged,
  payload: z.object({ formId: z.string().min(1) }),
} satisfies ChangeAnnouncement<z.ZodType>;

// The account lost its membership of a shared workspace: what it read of that
// workspace's forms may no longer be answered to it.
export const workspaceAccessRevoked = {
  subject: Subjects.formsWorkspaceAccessRevoked,
  payload: z.object({ accountId: z.string().min(1) }),
} satisfies ChangeAnnouncement<z.ZodType>;
