import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  createOAuthApplication,
  deleteOAuthApplication,
  listOAuthApplications,
  type OAuthApplication,
  type RpcRequest,
} from '@formline/contracts';
import { capReachedError, DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { OAuthApplicationRepository } from './oauth-application.repository';

// Applications an account registers to use the OAuth flow on other accounts.
@Controller()
export class OAuthApplicationHandler {
  constructor(
    private readonly applications: OAuthApplicationRepository,
    @Inject(GLOBAL_CONFIG) private readonly config: Pick<GlobalConfig, 'OAUTH_APPLICATIONS_PER_ACCOUNT'>,
  ) {}

  @MessagePattern(createOAuthApplication.subject)
  async create(
    @Payload(new ContractPipe(createOAuthApplication.request))
    request: RpcRequest<typeof createOAuthApplication>,
  ): Promise<OAuthApplication> {
    const maxOfAccount = this.config.OAUTH_APPLICATIONS_PER_ACCOUNT;
    const created = await this.applications.create(request, maxOfAccount);
    if (created) return created;
    throw capReachedError(
      'TOO_MANY_APPLICATIONS',
      `This account holds ${maxOfAccount} OAuth applications, the most it may; delete one to register another.`,
      `at most ${maxOfAccount} applications an account`,
    );
  }

  @MessagePattern(listOAuthApplications.subject)
  async list(
    @Payload(new ContractPipe(listOAuthApplications.request))
    request: RpcRequest<typeof listOAuthApplications>,
  ): Promise<{ items: OAuthApplication[] }> {
    return { items: await this.applications.list(request.accountId) };
  }

  @MessagePattern(deleteOAuthApplication.subject)
  async delete(
    @Payload(new ContractPipe(deleteOAuthApplication.request))
    request: RpcRequest<typeof deleteOAuthApplication>,
  ): Promise<Record<string, never>> {
    if (!(await this.applications.delete(request.accountId, request.clientId))) {
      throw new DomainError(
        ErrorCode.ApplicationNotFound,
        `Non existing application with client_id ${request.clientId}.`,
      );
    }
    return {};
  }
}
