import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { approveAuthorization, type RpcRequest, validateAuthorization } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { AccountCredentialsService } from '../accounts/account-credentials.service';
import { OAuthApplicationRepository, type OAuthClient } from './oauth-application.repository';
import { OAuthGrantRepository } from './oauth-grant.repository';

// Authorization codes live at most ten minutes (RFC 6749 4.1.2): long enough
// for a redirect, short enough that a leaked one is soon worthless.
const codeLifetimeMs = 10 * 60 * 1000;

// The authorization endpoint's decisions: which client and redirect URI are
// acceptable, and, once the account owner has signed in and consented, the code.
@Controller()
export class OAuthAuthorizationHandler {
  constructor(
    private readonly applications: OAuthApplicationRepository,
    private readonly grants: OAuthGrantRepository,
    private readonly credentials: AccountCredentialsService,
  ) {}

  @MessagePattern(validateAuthorization.subject)
  async validate(
    @Payload(new ContractPipe(validateAuthorization.request))
    request: RpcRequest<typeof validateAuthorization>,
  ): Promise<{ applicationName: string; publicClient: boolean }> {
    const client = await this.clientFor(request.clientId, request.redirectUri);
    return { applicationName: client.name, publicClient: client.publicClient };
  }

  @MessagePattern(approveAuthorization.subject)
  async approve(
    @Payload(new ContractPipe(approveAuthorization.request))
    request: RpcRequest<typeof approveAuthorization>,
  ): Promise<Record<string, never>> {
    const client = await this.clientFor(request.clientId, request.redirectUri);
    // A public client's code is bound to its verifier, or anyone who sees the
    // code could spend it; and a browser holds no refresh token. The gateway
    // refuses both before the page; this holds whoever asks.
    if (client.publicClient && !request.codeChallenge) {
      throw new DomainError(ErrorCode.InvalidRequest, 'This application must use PKCE (code_challenge).');
    }
    if (client.publicClient && request.scopes.includes('offline')) {
      throw new DomainError(ErrorCode.InvalidRequest, 'This application gets no refresh token (offline).');
    }
    refuseScopesBeyond(client, request.scopes);
    const owner = await this.credentials.authenticate(request.email, request.password);
    await this.applications.ensureFirstParty(client.id);
    await this.grants.createCode({
      codeHash: request.codeHash,
      applicationId: client.id,
      accountId: owner.accountId,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge ?? null,
      expiresAt: new Date(Date.now() + codeLifetimeMs),
    });
    return {};
  }

  // Redirect URIs match exactly (no prefixes, no wildcards): anything looser
  // has let attackers steer codes to pages they control.
  private async clientFor(clientId: string, redirectUri: string): Promise<OAuthClient> {
    const client = await this.applications.findClient(clientId);
    if (!client) throw new DomainError(ErrorCode.InvalidClient, 'Unknown client_id.');
    if (!client.redirectUris.includes(redirectUri)) {
      throw new DomainError(ErrorCode.InvalidRequest, 'redirect_uri is not registered for this application.');
    }
    return client;
  }
}

// The deployment's own clients ask only for what their screens use (least
// privilege): a page that asks for more is not theirs.
function refuseScopesBeyond(client: OAuthClient, scopes: readonly string[]): void {
  const beyond = client.scopes ? scopes.filter((scope) => !client.scopes?.includes(scope)) : [];
  if (beyond.length > 0) {
    throw new DomainError(ErrorCode.InvalidScope, `This application may not ask for ${beyond.join(', ')}.`);
  }
}
