import {
  accountProfileSchema,
  deliveryResourceSchema,
  formResourceSchema,
  formSummarySchema,
  patchOperationsSchema,
  responseResourceSchema,
  submissionSchema,
  webhookInputSchema,
  webhookResourceSchema,
  workspaceBodySchema,
  workspaceResourceSchema,
} from '@formline/contracts';
import { errorBodySchema, oauthErrorBodySchema } from '@formline/errors';
import { formInputSchema } from '@formline/form-definition';
import type { z } from 'zod';

// Schemas that get a name in the document (`#/components/schemas/<name>`)
// instead of being written out inline at every use. Only a name is added
// here: the schemas are the ones the code validates with.
export const namedSchemas = new Map<z.ZodType, string>([
  [errorBodySchema, 'Error'],
  [formInputSchema, 'FormDefinition'],
  [formResourceSchema, 'Form'],
  [formSummarySchema, 'FormSummary'],
  [patchOperationsSchema, 'JsonPatch'],
  [workspaceBodySchema, 'WorkspaceDefinition'],
  [workspaceResourceSchema, 'Workspace'],
  [accountProfileSchema, 'AccountProfile'],
  [oauthErrorBodySchema, 'OAuthError'],
  [submissionSchema, 'Submission'],
  [responseResourceSchema, 'Response'],
  [webhookInputSchema, 'WebhookDefinition'],
  [webhookResourceSchema, 'Webhook'],
  [deliveryResourceSchema, 'Delivery'],
]);
