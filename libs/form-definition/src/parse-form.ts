import { inputLimits, jsonBytes } from '@formline/input';
import { DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import { checkFormReferences } from './form-references';
import type { FormDefinition } from './form-definition';
import { formInputSchema } from './form-input.schema';
import { normalizeForm, type IdSource, randomIds } from './normalize-form';

export interface ParsedForm {
  definition: FormDefinition;
  /** The workspace the client asked for, if it named one. */
  workspaceHref?: string;
}

// The one way in for a form definition: shape, then references, then the
// stored form. Every problem is reported at once, each naming its path.
export function parseFormDefinition(
  body: unknown,
  previous?: FormDefinition,
  ids: IdSource = randomIds,
): ParsedForm {
  const parsed = formInputSchema.safeParse(body);
  if (!parsed.success) {
    throw new DomainError(
      ErrorCode.ValidationError,
      'The form definition is invalid.',
      detailsFromIssues(parsed.error.issues, 'body'),
    );
  }
  const definition = normalizeForm(parsed.data, previous, ids);
  const problems = checkFormReferences(definition);
  if (problems.length > 0) {
    throw new DomainError(
      ErrorCode.ValidationError,
      'The form definition refers to things it does not have.',
      problems,
    );
  }
  const bytes = jsonBytes(definition);
  if (bytes > inputLimits.storedBytes) {
    // Ids and refs added on the way may make a definition larger than the body was.
    throw new DomainError(
      ErrorCode.PayloadTooLarge,
      `The form definition is too large: ${bytes} bytes once stored, at most ${inputLimits.storedBytes}.`,
    );
  }
  return { definition, workspaceHref: parsed.data.workspace?.href };
}
