import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { type AccessTokenPrincipal, type FormSnapshot, getFormSnapshot } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { ReadCache } from '../cache/read-cache';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { SubmissionThrottle } from '../rate-limit/submission.throttle';

export interface SubmissionTarget {
  /** The form's snapshot (cached): what the submission is checked against. */
  form: FormSnapshot;
  /** The base address of the form's region, when it is not this one. */
  elsewhere?: string;
}

// What a respondent's submission, partial save and file upload share before
// anything is read: anonymous callers within their rate budget, the form
// found (cached), a private form only with its owner's token (404 to
// another account), and the region the form's responses live in. Each caller
// then decides what the other region means for it (a 307, or a refusal).
@Injectable()
export class SubmissionTargets {
  constructor(
    private readonly rpc: RpcClient,
    private readonly throttle: SubmissionThrottle,
    private readonly cache: ReadCache,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async locate(
    formId: string,
    caller: { principal: AccessTokenPrincipal | undefined; clientAddress: string },
    what: { budget: 'submissions' | 'progress'; verb: string },
  ): Promise<SubmissionTarget> {
    const { principal, clientAddress } = caller;
    if (!principal) {
      if (what.budget === 'progress') await this.throttle.admitAnonymousProgress(formId, clientAddress);
      else await this.throttle.admitAnonymous(formId, clientAddress);
    }
    const form = await this.cache.snapshots.getOrLoad(formId, () =>
      this.rpc.request(getFormSnapshot, { formId }),
    );
    if (!form.isPublic && principal?.accountId !== form.accountId) {
      if (!principal) {
        throw new DomainError(
          ErrorCode.AuthenticationFailed,
          `This form is private: ${what.verb} with a token of its owner.`,
        );
      }
      throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
    }
    return form.region === this.config.REGION
      ? { form }
      : { form, elsewhere: regionBaseUrls(this.config)[form.region] };
  }
}
