import { currentRequestId } from '@formline/ops';
import { Inject, Injectable } from '@nestjs/common';
import {
  authorizeForm,
  getFormSnapshot,
  type InsightsAnswers,
  type InsightsSummary,
} from '@formline/contracts';
import type { FormDefinition } from '@formline/form-definition';
import { RpcClient } from '@formline/messaging';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { distributeAnswers } from './insights.answers';
import { type AnswerCounts, InsightsRepository } from './insights.repository';
import { summarizeInsights } from './insights.summary';

// The Insights summary and distribution of answers of the caller's form, or
// of a form in a workspace shared with it. Counted from this region's
// responses: on the other region's address every counter is zero (responses
// data answers empty outside the account's region), with the form's
// questions still listed.
@Injectable()
export class InsightsService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly insights: InsightsRepository,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {}

  async summary(accountId: string, formId: string): Promise<InsightsSummary> {
    const { definition, here } = await this.readableForm(accountId, formId);
    if (!here) return summarizeInsights(definition, [], [], []);
    const { platforms, answered, leftAfter } = await this.insights.counts(formId);
    return summarizeInsights(definition, platforms, answered, leftAfter);
  }

  async answers(accountId: string, formId: string): Promise<InsightsAnswers> {
    const { definition, here } = await this.readableForm(accountId, formId);
    const counts: AnswerCounts = here
      ? await this.insights.answerCounts(formId)
      : { responses: 0, answered: new Map(), given: new Map() };
    return distributeAnswers(definition, counts);
  }

  // The form's definition, once the caller may read its responses, and
  // whether they are stored in this region.
  private async readableForm(
    accountId: string,
    formId: string,
  ): Promise<{ definition: FormDefinition; here: boolean }> {
    const form = await this.rpc.request(getFormSnapshot, { formId }, currentRequestId());
    // The owner's own form needs nothing more; anyone else asks the forms
    // service, which answers 404 unless the form is shared with them.
    if (form.accountId !== accountId)
      await this.rpc.request(
        authorizeForm,
        { accountId, formId, need: 'responses-read' },
        currentRequestId(),
      );
    return { definition: form.definition as FormDefinition, here: form.region === this.config.REGION };
  }
}
