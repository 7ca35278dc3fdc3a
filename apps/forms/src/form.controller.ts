import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { regionBaseUrls } from '@formline/config';
import { type FormResource, getForm } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { FORMS_CONFIG, type FormsConfig } from './forms.config';
import { presentForm } from './form.presenter';
import { FormRepository } from './form.repository';

@Controller()
export class FormController {
  constructor(
    private readonly forms: FormRepository,
    @Inject(FORMS_CONFIG) private readonly config: FormsConfig,
  ) {}

  @MessagePattern(getForm.subject)
  async get(
    @Payload(new ContractPipe(getForm.request)) request: { accountId: string; formId: string },
  ): Promise<FormResource> {
    const form = await this.forms.findOwned(request.accountId, request.formId);
    if (!form) throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${request.formId}.`);
    return presentForm(form, regionBaseUrls(this.config));
  }
}
