import { Inject, Injectable } from '@nestjs/common';
import { HTTP_EDGE_CONFIG, type HttpEdgeConfig } from '../http-edge.config';
import { type Budget, RateLimiter } from './rate-limiter';

// Anonymous submissions (public forms take them from anyone) have two
// budgets: per client address, so one machine cannot flood a form or the
// region, and per form, so a form under attack from many addresses cannot eat
// the region's capacity. Submissions with a token count against the token's
// own limit instead. The per-form budget is large: reached, it refuses honest
// respondents of that form too, but only that form.
@Injectable()
export class SubmissionThrottle {
  private readonly perAddress: Budget;
  private readonly perForm: Budget;
  private readonly progressPerAddress: Budget;
  private readonly progressPerForm: Budget;

  constructor(limiter: RateLimiter, @Inject(HTTP_EDGE_CONFIG) config: HttpEdgeConfig) {
    const windowMs = config.SUBMISSION_RATE_LIMIT_WINDOW_MS;
    this.perAddress = limiter.budget(
      { name: 'submit-address', limit: config.SUBMISSION_RATE_LIMIT_PER_ADDRESS, windowMs },
      'Too many submissions from this address.',
    );
    this.perForm = limiter.budget(
      { name: 'submit-form', limit: config.SUBMISSION_RATE_LIMIT_PER_FORM, windowMs },
      'Too many submissions to this form.',
    );
    // Partial saves (a respondent's progress) have budgets of their own, as
    // large: a respondent's autosaves never eat the final submission's.
    this.progressPerAddress = limiter.budget(
      { name: 'progress-address', limit: config.SUBMISSION_RATE_LIMIT_PER_ADDRESS, windowMs },
      'Too many partial saves from this address.',
    );
    this.progressPerForm = limiter.budget(
      { name: 'progress-form', limit: config.SUBMISSION_RATE_LIMIT_PER_FORM, windowMs },
      'Too many partial saves to this form.',
    );
  }

  async admitAnonymous(formId: string, clientAddress: string): Promise<void> {
    await this.perAddress.consume(clientAddress);
    await this.perForm.consume(formId);
  }

  async admitAnonymousProgress(formId: string, clientAddress: string): Promise<void> {
    await this.progressPerAddress.consume(clientAddress);
    await this.progressPerForm.consume(formId);
  }
}
