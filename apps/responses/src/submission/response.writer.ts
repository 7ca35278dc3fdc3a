import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import type { FormDefinition } from '@formline/form-definition';
import { inputLimits } from '@formline/input';
import { currentRequestId } from '@formline/ops';
import { OutboxRelayJob } from '../outbox/outbox-relay.job';
import { ResponseRepository } from '../response.repository';
import { FileAnswers } from './file-answers';
import { buildPartialResponse } from './partial-response.builder';
import { type BuiltResponse, buildResponse, newResponseToken, type ResponseFacts } from './response.builder';

// The one step a final submission and a partial save share: the response
// built from a checked submission, its files checked and shown at the response
// files endpoint, its size bounded, and written with its event: a new
// response, or the next state of the one in progress. Undefined when a
// concurrent write won (the caller looks again).
export interface ResponseWrite {
  kind: 'completed' | 'partial';
  formId: string;
  accountId: string;
  definition: FormDefinition;
  checked: Pick<ResponseFacts, 'path' | 'answers' | 'hidden' | 'landedAt'>;
  metadata: ResponseFacts['metadata'];
  inProgress?: { id: string; landedAt: Date } | null;
  requestHash: string;
  progressKey?: string;
  idempotencyKey?: string;
}

@Injectable()
export class ResponseWriter {
  constructor(
    private readonly responses: ResponseRepository,
    private readonly relay: OutboxRelayJob,
    private readonly files: FileAnswers,
  ) {}

  async write(step: ResponseWrite): Promise<BuiltResponse | undefined> {
    const { formId, accountId, inProgress } = step;
    // The response in progress keeps its token and when the respondent landed.
    const token = inProgress?.id ?? newResponseToken();
    const fileNames = await this.files.check(formId, step.checked.answers, inProgress?.id);
    const build = step.kind === 'partial' ? buildPartialResponse : buildResponse;
    const built = build({
      ...step.checked,
      answers: this.files.present(formId, token, step.checked.answers),
      token,
      landedAt: step.checked.landedAt ?? inProgress?.landedAt.toISOString(),
      formId,
      accountId,
      definition: step.definition,
      metadata: step.metadata,
      now: new Date(),
    });
    const json = storedJson(built);
    const write = {
      formId,
      accountId,
      built,
      json,
      idempotencyKey: step.idempotencyKey,
      requestHash: step.requestHash,
      requestId: currentRequestId(),
      progressKey: step.progressKey,
      fileNames,
    };
    const stored = inProgress
      ? await this.responses.updateInProgress(inProgress.id, write)
      : await this.responses.insertWithEvent(write);
    if (!stored) return undefined;
    this.relay.publishCommitted(stored);
    return built;
  }
}

// A response must fit in a page of the listing and, with the form's questions,
// in the event the relay publishes: both travel as one NATS message (1 MB). The
// stored response may be larger than the body (picked choices carry their
// labels), so it is measured once built; too large is the caller's 413. The
// texts measured are the ones stored: each is serialised once.
export function storedJson(built: BuiltResponse): { resource: string; event: string } {
  const json = { resource: JSON.stringify(built.resource), event: JSON.stringify(built.event) };
  const response = Buffer.byteLength(json.resource);
  const event = Buffer.byteLength(json.event);
  if (response > inputLimits.storedBytes || event > inputLimits.replyBytes) {
    throw new DomainError(
      ErrorCode.PayloadTooLarge,
      `The submission is too large once stored (${response} bytes, at most ${inputLimits.storedBytes}); send shorter answers.`,
    );
  }
  return json;
}
