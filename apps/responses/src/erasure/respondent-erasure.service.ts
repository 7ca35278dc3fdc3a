import { Injectable } from '@nestjs/common';
import type { ErasureJob } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ErasureJobRepository } from './erasure-job.repository';
import { RespondentErasureJob } from './respondent-erasure.job';

// Right to be forgotten: a request is recorded as a job (erasure_jobs) and
// answered with its id at once; the job deletes the account's responses in
// this region that hold one of the addresses, their uploads and bytes, the
// outbox events carrying them, and (through the webhooks service, which owns
// them) their deliveries, in the background (RespondentErasureJob).
@Injectable()
export class RespondentErasureService {
  constructor(
    private readonly jobs: ErasureJobRepository,
    private readonly job: RespondentErasureJob,
  ) {}

  async request(accountId: string, emails: readonly string[]): Promise<string> {
    const lowered = [...new Set(emails.map((email) => email.trim().toLowerCase()))];
    const id = await this.jobs.record(accountId, lowered);
    void this.job.runner.runOnce();
    return id;
  }

  async find(accountId: string, jobId: string): Promise<ErasureJob> {
    const job = await this.jobs.find(accountId, jobId);
    if (!job) throw new DomainError(ErrorCode.NotFound, `Non existing job with id ${jobId.slice(0, 64)}.`);
    return job;
  }
}
