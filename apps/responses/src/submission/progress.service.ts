import { Injectable } from '@nestjs/common';
import type { ResponseResource, RpcRequest, saveProgress } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import type { FormDefinition } from '@formline/form-definition';
import { ResponseRepository } from '../response.repository';
import { ResponseWriter } from './response.writer';
import { hashOf, SubmissionService } from './submission.service';

// Partial responses: a respondent's answers saved before the final submit,
// one response per progress key, each save that changes it announced as a
// `form_response_partial` event in the same transaction (the outbox). The
// final submission naming the key completes that same response
// (SubmissionService). A form stores them when it has a milestone or keeps
// its autosave_progress on (Typeform's default).
@Injectable()
export class ProgressService {
  constructor(
    private readonly submissions: SubmissionService,
    private readonly responses: ResponseRepository,
    private readonly writer: ResponseWriter,
  ) {}

  async save(
    request: RpcRequest<typeof saveProgress>,
  ): Promise<{ response: ResponseResource; changed: boolean }> {
    const snapshot = await this.submissions.formOf(request);
    const definition = snapshot.definition as FormDefinition;
    if (!takesPartialResponses(definition)) {
      throw new DomainError(ErrorCode.ValidationError, 'This form does not take partial responses.', [
        {
          code: 'PARTIAL_RESPONSES_OFF',
          description: 'the form has no milestone and its settings.autosave_progress is false',
          field: 'progress_key',
          in: 'body',
        },
      ]);
    }
    const checked = this.submissions.check(definition, request.body, 'partial');
    const progressKey = hashOf(checked.progressKey);
    const requestHash = hashOf(request.body);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const stored = await this.responses.findByProgressKey(request.formId, progressKey);
      // Completed already (a late save racing the final submit): refused, and
      // nothing of it is told. Whoever holds a progress key is not therefore
      // the respondent who completed it, and its answers and hidden fields
      // are the form owner's to read, not the key holder's.
      if (stored?.responseType === 'completed') throw completedAlready();
      // The same save again (a retry): nothing changes and no event is sent.
      if (stored && stored.requestHash === requestHash) {
        return { response: stored.payload as ResponseResource, changed: false };
      }
      const built = await this.writer.write({
        kind: 'partial',
        formId: request.formId,
        accountId: snapshot.accountId,
        definition,
        checked,
        metadata: request.metadata,
        inProgress: stored,
        requestHash,
        progressKey,
      });
      if (built) return { response: built.resource, changed: true };
    }
    throw new DomainError(ErrorCode.Conflict, 'The save met a concurrent one; send it again.');
  }
}

function completedAlready(): DomainError {
  const description = 'The response under this progress key is completed: it takes no more partial saves.';
  return new DomainError(ErrorCode.Conflict, description, [
    { code: 'RESPONSE_COMPLETED', description, field: 'progress_key', in: 'body' },
  ]);
}

// Typeform's autosave_progress defaults to true; a milestone asks for a
// partial submit point whatever autosave says.
export function takesPartialResponses(definition: FormDefinition): boolean {
  const settings = definition.settings as { autosave_progress?: boolean; milestones?: unknown[] };
  return settings.autosave_progress !== false || (settings.milestones?.length ?? 0) > 0;
}
