import type { InsightsAnswers, InsightsSummary } from '@formline/contracts';
import type { ApiClient } from './api.client';

// The Insights API of one form, as the Insights screen calls it: Typeform's
// summary (views, starts, completion, time, per platform and per question)
// and the distribution of the answers per question. Each path built in one
// place, the form's id escaped.
export class InsightsApiClient {
  private readonly formPath: string;

  constructor(
    private readonly api: ApiClient,
    readonly formId: string,
  ) {
    this.formPath = `/insights/${encodeURIComponent(formId)}`;
  }

  summary(signal?: AbortSignal): Promise<InsightsSummary> {
    return this.api.get<InsightsSummary>(`${this.formPath}/summary`, {}, signal);
  }

  answers(signal?: AbortSignal): Promise<InsightsAnswers> {
    return this.api.get<InsightsAnswers>(`${this.formPath}/answers`, {}, signal);
  }
}
