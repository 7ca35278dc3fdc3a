import { randomBytes, randomUUID } from 'node:crypto';
import { type ResponseSubmittedEvent, type ResponseType, wholeSecondsIso } from '@formline/contracts';
import { allFields, type FormDefinition } from '@formline/form-definition';
import type { RespondentPath, StoredAnswer } from '@formline/form-logic';
import { payloadField } from './payload-field';

export interface BuiltResponse {
  token: string;
  responseType: ResponseType;
  landedAt: Date;
  submittedAt: Date;
  // The response as the Responses API lists it.
  resource: Record<string, unknown> & {
    token: string;
    response_id: string;
    landed_at: string;
    submitted_at: string;
  };
  // The event announcing it, Typeform's webhook payload.
  event: ResponseSubmittedEvent;
  searchText: string;
  // The ids and refs of the questions it answers, for `answered_fields`.
  answeredFields: string[];
}

export interface ResponseFacts {
  formId: string;
  accountId: string;
  definition: FormDefinition;
  path: RespondentPath;
  answers: StoredAnswer[];
  hidden: Record<string, string>;
  landedAt?: string;
  // The token of the response in progress this submission completes.
  token?: string;
  metadata: { user_agent?: string; referer?: string };
  now: Date;
}

// Typeform's response tokens: 32 lower-case hex characters.
export function newResponseToken(): string {
  return randomBytes(16).toString('hex');
}

export function buildResponse(facts: ResponseFacts): BuiltResponse {
  const token = facts.token ?? newResponseToken();
  const submittedAt = facts.now;
  const landedAt = facts.landedAt ? new Date(facts.landedAt) : submittedAt;
  const { score, price } = facts.path.variables;
  const variables = [
    { key: 'price', type: 'number', number: price },
    { key: 'score', type: 'number', number: score },
  ];
  const ending = { id: facts.path.ending.id, ref: facts.path.ending.ref };
  const resource = {
    landing_id: token,
    token,
    response_id: token,
    response_type: 'completed',
    landed_at: wholeSecondsIso(landedAt),
    submitted_at: wholeSecondsIso(submittedAt),
    metadata: {
      user_agent: facts.metadata.user_agent ?? '',
      platform: 'other',
      referer: facts.metadata.referer ?? '',
      network_id: '',
      browser: 'default',
    },
    hidden: facts.hidden,
    calculated: { score },
    variables,
    answers: facts.answers,
    ending,
  };
  const questions = allFields(facts.definition.fields).filter(
    (f) => f.type !== 'statement' && f.type !== 'group',
  );
  const event: ResponseSubmittedEvent = {
    event_id: randomUUID(),
    event_type: 'form_response',
    form_response: {
      form_id: facts.formId,
      token,
      landed_at: resource.landed_at,
      submitted_at: resource.submitted_at,
      hidden: facts.hidden,
      calculated: { score },
      variables,
      definition: {
        id: facts.formId,
        title: facts.definition.title,
        fields: questions.map(payloadField),
        endings: facts.definition.thankyou_screens.map((s) => ({
          id: s.id,
          ref: s.ref,
          title: s.title,
          type: s.type,
        })),
        // As Typeform's payloads carry it; the webhooks service reads it.
        settings: {
          partial_responses_to_all_integrations:
            facts.definition.settings.partial_responses_to_all_integrations === true,
        },
      },
      answers: facts.answers,
      ending,
    },
    account_id: facts.accountId,
  };
  return {
    token,
    responseType: 'completed',
    landedAt,
    submittedAt,
    resource,
    event,
    searchText: searchTextOf(facts.answers, facts.hidden),
    answeredFields: [...new Set(facts.answers.flatMap((answer) => [answer.field.id, answer.field.ref]))],
  };
}

// Everything the `query` filter searches: answers, choices and hidden values.
function searchTextOf(answers: readonly StoredAnswer[], hidden: Record<string, string>): string {
  const parts = answers.flatMap((answer) => [
    answer.text,
    answer.email,
    answer.url,
    answer.phone_number,
    answer.file_url,
    answer.multi_format?.text,
    answer.multi_format?.file_url,
    answer.payment?.name,
    answer.date,
    answer.number?.toString(),
    answer.boolean?.toString(),
    answer.choice?.label,
    answer.choice?.other,
    ...(answer.choices?.labels ?? []),
    answer.choices?.other,
  ]);
  return [...parts, ...Object.values(hidden)]
    .filter((part) => part !== undefined && part !== '')
    .join('\n')
    .toLowerCase();
}
