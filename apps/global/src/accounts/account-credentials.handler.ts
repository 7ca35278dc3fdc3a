import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type AccountOwner, type RpcRequest, verifyAccountCredentials } from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { AccountCredentialsService } from './account-credentials.service';

@Controller()
export class AccountCredentialsHandler {
  constructor(private readonly credentials: AccountCredentialsService) {}

  @MessagePattern(verifyAccountCredentials.subject)
  async verify(
    @Payload(new ContractPipe(verifyAccountCredentials.request))
    request: RpcRequest<typeof verifyAccountCredentials>,
  ): Promise<AccountOwner> {
    return this.credentials.authenticate(request.email, request.password);
  }
}
