import { Body, Controller, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  partialSubmissionSchema,
  responseResourceSchema,
} from '@formline/contracts';
import { ErrorCode, errorBodySchema } from '@formline/errors';
import type { FastifyReply } from 'fastify';
import {
  OptionalPrincipal,
  ScopeIfAuthenticated,
  ApiOperation,
  RequestId,
  AnonymousBudget,
} from '@formline/http-edge';
import { SubmissionTargets } from './submission-target';
import { SubmissionSender } from './submission.sender';

// Partial responses: a respondent's answers saved before the final submit, as
// the respondent's page sends them at a milestone and as autosave goes. Who
// may save, where, and how often are the rules of submissions: public forms
// from anyone (rate limited per address and per form), private ones with an
// owner's token, only in the region of the form's account (307 elsewhere).
@Controller('forms/:form_id')
export class PartialSubmissionsController {
  constructor(
    private readonly targets: SubmissionTargets,
    private readonly submissions: SubmissionSender,
  ) {}

  @Post('submissions/partial')
  @HttpCode(200)
  @ScopeIfAuthenticated('responses:write')
  @AnonymousBudget('progress')
  @ApiOperation({
    summary: "Save a respondent's progress (a partial response)",
    description:
      'The answers so far, under `progress_key` (16 to 128 random letters, digits, `_` or `-`, made by the ' +
      'respondent): every save with the same key updates one response (`response_type` `partial`, or ' +
      '`started` with no answer yet), and a submission to `/submissions` with that key completes it, ' +
      'keeping its token. Each save that changes it is sent to webhooks subscribed to ' +
      '`form_response_partial`; the same save again changes nothing, and a save after the final ' +
      'submission is refused with 409 `CONFLICT` (detail `RESPONSE_COMPLETED`), telling nothing of the ' +
      'completed response. Forms take them when they have a milestone ' +
      'or keep `settings.autosave_progress` on.',
    body: partialSubmissionSchema,
    responses: {
      200: {
        description: 'The response in progress, as the Responses API shows it.',
        body: responseResourceSchema,
      },
      307: {
        description: "The form's responses live in the other region: save there, with the same body.",
        body: errorBodySchema,
        headers: { Location: "The partial submissions address in the form's region." },
      },
    },
    errors: [ErrorCode.FormNotFound, ErrorCode.WrongRegion, ErrorCode.Conflict],
  })
  async save(
    @RequestId() requestId: string,
    @OptionalPrincipal() principal: AccessTokenPrincipal | undefined,
    @Param('form_id') formId: string,
    @Body() body: unknown,
    @Headers() headers: Record<string, string | undefined>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const target = await this.targets.locate(formId, { principal, requestId }, { verb: 'save' });
    const redirected = this.targets.elsewhere(target, {
      path: `/forms/${formId}/submissions/partial`,
      takes: 'partial responses',
      redirect: reply,
    });
    if (redirected) return redirected;
    const { form } = target;
    const { response } = await this.submissions.saveProgress(
      { formId, body, metadata: { user_agent: headers['user-agent'], referer: headers.referer } },
      form,
      requestId,
    );
    return response;
  }
}
