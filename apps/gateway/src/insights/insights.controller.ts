import { Controller, Get, Param } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  getInsightsAnswers,
  getInsightsSummary,
  type InsightsAnswers,
  insightsAnswersSchema,
  type InsightsSummary,
  insightsSummarySchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { Principal, RequiredScope, ApiOperation, RequestId } from '@formline/http-edge';

// Typeform's Insights API: a form's summary, counted from its responses; and,
// beyond Typeform's API, the distribution of its answers.
@Controller('insights')
export class InsightsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':form_id/summary')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: "A form's insights summary",
    description:
      'Counted from the responses stored in this region: on the other region every counter is zero. ' +
      'Visits are the landings known from stored responses (no page views are recorded).',
    responses: { 200: { description: 'The summary.', body: insightsSummarySchema } },
    errors: [ErrorCode.FormNotFound],
  })
  summary(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
  ): Promise<InsightsSummary> {
    return this.rpc.request(getInsightsSummary, { accountId: principal.accountId, formId }, requestId);
  }

  @Get(':form_id/answers')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: "The distribution of a form's answers",
    description:
      "An extension of Typeform's Insights API, which has only the summary. " +
      'For each question whose answers are a bounded set (multiple choice, dropdown, picture choice: each ' +
      'choice and `other`; yes/no; rating, opinion scale, NPS: each value) the completed responses giving ' +
      'each answer, and the completed responses answering it; for a number question, how many answered ' +
      'and the average. Counted from the completed responses stored in this region: on the other region ' +
      'every count is zero, the questions still listed.',
    responses: { 200: { description: 'The distribution.', body: insightsAnswersSchema } },
    errors: [ErrorCode.FormNotFound],
  })
  answers(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
  ): Promise<InsightsAnswers> {
    return this.rpc.request(getInsightsAnswers, { accountId: principal.accountId, formId }, requestId);
  }
}
