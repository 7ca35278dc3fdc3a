import { currentRequestId } from '@formline/ops';
import { Inject, Injectable } from '@nestjs/common';
import { authorizeForm, getFormSnapshot, type InsightsSummary } from '@formline/contracts';
import type { FormDefinition } from '@formline/form-definition';
import { RpcClient } from '@formline/messaging';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { InsightsRepository } from './insights.repository';
import { summarizeInsights } from './insights.summary';

// The Insights summary of the caller's form, or of a form in a workspace
// shared with it. Counted from this region's responses: on the other region's
// address every counter is zero (responses data answers empty outside the
// account's region), with the form's questions still listed.
@Injectable()
export class InsightsService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly insights: InsightsRepository,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {}

  async summary(accountId: string, formId: string): Promise<InsightsSummary> {
    const form = await this.rpc.request(getFormSnapshot, { formId }, currentRequestId());
    // The owner's own form needs nothing more; anyone else asks the forms
    // service, which answers 404 unless the form is shared with them.
    if (form.accountId !== accountId)
      await this.rpc.request(
        authorizeForm,
        { accountId, formId, need: 'responses-read' },
        currentRequestId(),
      );
    const definition = form.definition as FormDefinition;
    if (form.region !== this.config.REGION) return summarizeInsights(definition, [], [], []);
    const { platforms, answered, leftAfter } = await this.insights.counts(formId);
    return summarizeInsights(definition, platforms, answered, leftAfter);
  }
}
