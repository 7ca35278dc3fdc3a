import { Controller, Get, Param } from '@nestjs/common';
import { type AccessTokenPrincipal, type FormResource, getForm } from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { Principal } from '../auth/principal.decorator';
import { RequiredScope } from '../auth/required-scope.decorator';

@Controller('forms')
export class FormsController {
  constructor(private readonly rpc: RpcClient) {}

  // SPEC 4.1: the same answer on both base addresses.
  @Get(':form_id')
  @RequiredScope('forms:read')
  async retrieve(
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
  ): Promise<FormResource> {
    return this.rpc.request(getForm, { accountId: principal.accountId, formId });
  }
}
