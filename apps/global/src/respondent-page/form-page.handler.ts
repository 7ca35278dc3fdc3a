import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type FormPage, getFormPage, type RpcRequest } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { isPublicForm } from '@formline/form-definition';
import { ContractPipe } from '@formline/messaging';
import { FormRepository } from '../form.repository';
import { ThemeService } from '../themes/theme.service';

// The respondent's page of a form, in one request: definition, location and
// theme. Not scoped to a caller (respondents have no token); the gateway
// refuses private forms to anonymous visitors.
@Controller()
export class FormPageHandler {
  constructor(
    private readonly forms: FormRepository,
    private readonly themes: ThemeService,
  ) {}

  @MessagePattern(getFormPage.subject)
  async page(
    @Payload(new ContractPipe(getFormPage.request)) request: RpcRequest<typeof getFormPage>,
  ): Promise<FormPage> {
    const form = await this.forms.findAnywhere(request.formId);
    if (!form) throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${request.formId}.`);
    return {
      formId: form.id,
      accountId: form.accountId,
      region: form.region,
      isPublic: isPublicForm(form.definition),
      definition: form.definition,
      theme: await this.themes.forForm(form.accountId, form.definition.theme?.href),
    };
  }
}
