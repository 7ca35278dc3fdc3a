import { randomUUID } from 'node:crypto';
import type { NewResponse } from './response.repository';
import { storedJson } from './submission/response.writer';

// A completed response as the intake builds it, for the repository's specs:
// `submitted` and `landed` are seconds after `at.base`.
export function responseAt(
  response: { id: string; submitted: number; landed: number },
  extra: Partial<NewResponse>,
  at: { base: number; formId: string; accountId: string },
): NewResponse {
  const submittedAt = new Date(at.base + response.submitted * 1000);
  const landedAt = new Date(at.base + response.landed * 1000);
  const times = { landed_at: landedAt.toISOString(), submitted_at: submittedAt.toISOString() };
  const built: NewResponse['built'] = {
    token: response.id,
    responseType: 'completed',
    landedAt,
    submittedAt,
    resource: { token: response.id, response_id: response.id, ...times },
    event: {
      event_id: randomUUID(),
      event_type: 'form_response',
      form_response: { form_id: extra.formId ?? at.formId, token: response.id, ...times },
      account_id: extra.accountId ?? at.accountId,
    },
    searchText: '',
    answeredFields: [],
  };
  return {
    formId: extra.formId ?? at.formId,
    accountId: extra.accountId ?? at.accountId,
    requestHash: 'hash',
    ...extra,
    built,
    json: storedJson(built),
  };
}
