import { Controller, Get, Param } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  getInsightsSummary,
  type InsightsSummary,
  insightsSummarySchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { Principal, RequiredScope, ApiOperation, RequestId } from '@formline/http-edge';

// Typeform's Insights API: a form's summary, counted from its responses.
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
}
