import { currentRequestId } from '@formline/ops';
import { requireHomeRegion } from '@formline/config';
import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  getFormSnapshot,
  type RpcRequest,
  type ResponseResource,
  type submitResponse,
} from '@formline/contracts';
import { DomainError, ErrorCode, detailsFromIssues, type ErrorDetail } from '@formline/errors';
import type { FormDefinition } from '@formline/form-definition';
import { valueOf, walkForm } from '@formline/form-logic';
import { RpcClient } from '@formline/messaging';
import { ResponseRepository } from '../response.repository';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { checkAnswers } from './check-answers';
import { ResponseWriter } from './response.writer';
import { partialSubmissionSchema, submissionSchema } from './submission.schema';

// Accepts a submission: checks it against the form, replays the form's logic,
// stores the response with its event, and has the event relayed. Only forms
// whose account lives in this region are accepted (region rule 4,
// docs/architecture.md).
@Injectable()
export class SubmissionService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly responses: ResponseRepository,
    private readonly writer: ResponseWriter,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {}

  async submit(
    request: RpcRequest<typeof submitResponse>,
  ): Promise<{ response: ResponseResource; replayed: boolean }> {
    const snapshot = await this.formOf(request);
    const requestHash = hashOf(request.body);
    const definition = snapshot.definition as FormDefinition;
    const checked = this.check(definition, request.body, 'complete');
    const progressKey = checked.progressKey && hashOf(checked.progressKey);
    // A retry that meets a concurrent one (same Idempotency-Key, or the same
    // response in progress) looks again: the second pass replays or completes.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (request.idempotencyKey) {
        const earlier = await this.replay(request.formId, request.idempotencyKey, requestHash);
        if (earlier) return { response: earlier, replayed: true };
      }
      const inProgress = progressKey
        ? await this.responses.findByProgressKey(request.formId, progressKey)
        : null;
      if (inProgress?.responseType === 'completed') {
        if (inProgress.requestHash !== requestHash) throw alreadyCompleted();
        return { response: inProgress.payload as ResponseResource, replayed: true };
      }
      const built = await this.writer.write({
        kind: 'completed',
        formId: request.formId,
        accountId: snapshot.accountId,
        definition,
        checked,
        metadata: request.metadata,
        inProgress,
        requestHash,
        progressKey,
        idempotencyKey: request.idempotencyKey,
      });
      if (built) return { response: built.resource, replayed: false };
    }
    throw new DomainError(ErrorCode.Conflict, 'The submission met a concurrent one; send it again.');
  }

  // The form's snapshot, refused unless its account lives in this region.
  async formOf(request: RpcRequest<typeof submitResponse>) {
    const snapshot =
      request.form ??
      (await this.rpc.request(getFormSnapshot, { formId: request.formId }, currentRequestId()));
    requireHomeRegion(this.config, snapshot.region, "This form's responses", `/forms/${request.formId}`);
    return snapshot;
  }

  private async replay(
    formId: string,
    key: string,
    requestHash: string,
  ): Promise<ResponseResource | undefined> {
    const earlier = await this.responses.findByIdempotencyKey(formId, key);
    if (!earlier) return undefined;
    if (earlier.requestHash !== requestHash) {
      throw new DomainError(
        ErrorCode.IdempotencyKeyReused,
        'This Idempotency-Key was used with another submission; use a new key for a new submission.',
      );
    }
    return earlier.payload as ResponseResource;
  }

  // Every problem of the submission at once, each naming where it is. A
  // partial one (progress before the final submit) may leave required
  // questions unanswered, and must name its progress key.
  check(definition: FormDefinition, body: unknown, mode: 'complete' | 'partial') {
    const parsed = (mode === 'partial' ? partialSubmissionSchema : submissionSchema).safeParse(body);
    if (!parsed.success) throw invalid(detailsFromIssues(parsed.error.issues, 'body'));
    const submission = parsed.data;
    const hidden = submission.hidden ?? {};
    const problems: ErrorDetail[] = Object.keys(hidden)
      .filter((name) => !definition.hidden.includes(name))
      .map((name) => ({
        code: 'UNKNOWN_HIDDEN_FIELD',
        description: `the form has no hidden field ${name}`,
        field: `hidden.${name}`,
        in: 'body',
      }));
    const { answers, positions, problems: answerProblems } = checkAnswers(definition, submission.answers);
    problems.push(...answerProblems);
    const path = walkForm(definition, {
      answer: (ref) => {
        const answer = answers.get(ref);
        return answer && valueOf(answer);
      },
      hidden: (name) => (Object.hasOwn(hidden, name) ? hidden[name] : undefined),
    });
    const visited = new Set(path.visited);
    for (const [ref, i] of positions) {
      if (!visited.has(ref)) {
        const description = `${ref} is not on the respondent's path through the form's logic`;
        problems.push({ code: 'NOT_ON_PATH', description, field: `answers[${i}]`, in: 'body' });
      }
    }
    for (const ref of mode === 'complete' ? path.visited : []) {
      const field = findField(definition, ref);
      const required = (field?.validations as { required?: boolean } | undefined)?.required === true;
      if (required && !answers.has(ref)) {
        problems.push({
          code: 'REQUIRED',
          description: `${ref} (${field?.title ?? ''}) is required`,
          field: ref,
          in: 'body',
        });
      }
    }
    if (problems.length > 0) throw invalid(problems);
    const orderedAnswers = path.visited.flatMap((ref) => answers.get(ref) ?? []);
    return {
      path,
      answers: orderedAnswers,
      hidden,
      landedAt: submission.landed_at,
      progressKey: submission.progress_key,
    };
  }
}

function findField(definition: FormDefinition, ref: string) {
  return definition.fields.flatMap((f) => [f, ...(f.properties.fields ?? [])]).find((f) => f.ref === ref);
}

// The digest of a submission's body, or of a progress key (stored instead of it).
export function hashOf(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex');
}

// Like an Idempotency-Key used again with another body: the key's response is done.
function alreadyCompleted(): DomainError {
  return new DomainError(
    ErrorCode.IdempotencyKeyReused,
    'The response with this progress_key was already submitted, with other answers; use a new key for a new response.',
  );
}

function invalid(details: ErrorDetail[]): DomainError {
  return new DomainError(ErrorCode.ValidationError, 'The submission is invalid.', details);
}
