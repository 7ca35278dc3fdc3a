import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  countResponses,
  deleteResponses,
  eraseRespondents,
  getErasureJob,
  getInsightsAnswers,
  getInsightsSummary,
  listResponses,
  recordUpload,
  type RpcReply,
  type RpcRequest,
  saveProgress,
  submitResponse,
} from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { RespondentErasureService } from './erasure/respondent-erasure.service';
import { InsightsService } from './insights/insights.service';
import { ResponseListingService } from './listing/response-listing.service';
import { ResponseRepository } from './response.repository';
import { ProgressService } from './submission/progress.service';
import { SubmissionService } from './submission/submission.service';
import { UploadRepository } from './uploads/upload.repository';

@Controller()
export class ResponseHandler {
  constructor(
    private readonly submissions: SubmissionService,
    private readonly progress: ProgressService,
    private readonly listing: ResponseListingService,
    private readonly responses: ResponseRepository,
    private readonly insights: InsightsService,
    private readonly erasure: RespondentErasureService,
    private readonly uploads: UploadRepository,
  ) {}

  @MessagePattern(recordUpload.subject)
  async recordUpload(
    @Payload(new ContractPipe(recordUpload.request)) request: RpcRequest<typeof recordUpload>,
  ): Promise<RpcReply<typeof recordUpload>> {
    await this.uploads.record(request);
    return { recorded: true };
  }

  @MessagePattern(submitResponse.subject)
  submit(@Payload(new ContractPipe(submitResponse.request)) request: RpcRequest<typeof submitResponse>) {
    return this.submissions.submit(request);
  }

  @MessagePattern(saveProgress.subject)
  saveProgress(@Payload(new ContractPipe(saveProgress.request)) request: RpcRequest<typeof saveProgress>) {
    return this.progress.save(request);
  }

  @MessagePattern(listResponses.subject)
  list(@Payload(new ContractPipe(listResponses.request)) request: RpcRequest<typeof listResponses>) {
    return this.listing.list(request.accountId, request.formId, request.query);
  }

  @MessagePattern(deleteResponses.subject)
  async delete(
    @Payload(new ContractPipe(deleteResponses.request)) request: RpcRequest<typeof deleteResponses>,
  ): Promise<RpcReply<typeof deleteResponses>> {
    return { deleted: await this.listing.delete(request.accountId, request.formId, request.responseIds) };
  }

  @MessagePattern(countResponses.subject)
  async count(
    @Payload(new ContractPipe(countResponses.request)) request: RpcRequest<typeof countResponses>,
  ): Promise<RpcReply<typeof countResponses>> {
    return { count: await this.responses.count(request.formId) };
  }

  @MessagePattern(getInsightsSummary.subject)
  insightsSummary(
    @Payload(new ContractPipe(getInsightsSummary.request)) request: RpcRequest<typeof getInsightsSummary>,
  ): Promise<RpcReply<typeof getInsightsSummary>> {
    return this.insights.summary(request.accountId, request.formId);
  }

  @MessagePattern(getInsightsAnswers.subject)
  insightsAnswers(
    @Payload(new ContractPipe(getInsightsAnswers.request)) request: RpcRequest<typeof getInsightsAnswers>,
  ): Promise<RpcReply<typeof getInsightsAnswers>> {
    return this.insights.answers(request.accountId, request.formId);
  }

  @MessagePattern(eraseRespondents.subject)
  async erase(
    @Payload(new ContractPipe(eraseRespondents.request)) request: RpcRequest<typeof eraseRespondents>,
  ): Promise<RpcReply<typeof eraseRespondents>> {
    return { jobId: await this.erasure.request(request.accountId, request.emails) };
  }

  @MessagePattern(getErasureJob.subject)
  erasureJob(
    @Payload(new ContractPipe(getErasureJob.request)) request: RpcRequest<typeof getErasureJob>,
  ): Promise<RpcReply<typeof getErasureJob>> {
    return this.erasure.find(request.accountId, request.jobId);
  }
}
