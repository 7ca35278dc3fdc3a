import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { homeRegionUrl } from '@formline/config';
import { mayRespond } from '@formline/form-definition';
import { type AccessTokenPrincipal, type FormSnapshot, getFormSnapshot } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { ReadCache } from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';

/** How the other region answers: a 307 to the same path there, or a refusal. */
export interface ElsewhereAnswer {
  /** The path under the form's region's base address, from `/forms/...`. */
  path: string;
  /** What the form takes there, for the message ("submissions", "files", ...). */
  takes: string;
  /** The reply to redirect with; without one the call is refused with 421 WRONG_REGION. */
  redirect?: FastifyReply;
}

export interface SubmissionTarget {
  /** The form's snapshot (cached): what the submission is checked against. */
  form: FormSnapshot;
  /** The base address of the form's region, when it is not this one. */
  elsewhere?: string;
}

// What a respondent's submission, partial save and file upload share once the
// caller is let in (its anonymous budget is counted before that, with the
// access decision: @AnonymousBudget): the form found (cached), a private form only with its owner's token (404 to
// another account), and the region the form's responses live in. What the
// other region answers (a 307 that keeps the body, or a refusal) is decided
// here too, once, so the three callers cannot drift apart.
@Injectable()
export class SubmissionTargets {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: ReadCache,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async locate(
    formId: string,
    caller: { principal: AccessTokenPrincipal | undefined; requestId: string },
    what: { verb: string },
  ): Promise<SubmissionTarget> {
    const { principal, requestId } = caller;
    const form = await this.cache.snapshots.getOrLoad(formId, () =>
      this.rpc.request(getFormSnapshot, { formId }, requestId),
    );
    if (!mayRespond(form, principal?.accountId)) {
      if (!principal) {
        throw new DomainError(
          ErrorCode.AuthenticationFailed,
          `This form is private: ${what.verb} with a token of its owner.`,
        );
      }
      throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
    }
    return { form, elsewhere: homeRegionUrl(this.config, form.region) };
  }

  /**
   * Undefined when the form's responses live in this region. Otherwise the
   * body of a 307 to the same path in the form's region (status and Location
   * set on `how.redirect`), or, without a reply to redirect, a 421
   * WRONG_REGION refusal naming that address.
   */
  elsewhere(
    target: SubmissionTarget,
    how: ElsewhereAnswer,
  ): { code: ErrorCode; description: string } | undefined {
    if (!target.elsewhere) return undefined;
    const location = `${target.elsewhere}${how.path}`;
    const description = `This form takes ${how.takes} at ${location}.`;
    if (!how.redirect) throw new DomainError(ErrorCode.WrongRegion, description);
    void how.redirect.status(307).header('Location', location);
    return { code: ErrorCode.WrongRegion, description };
  }
}
