import type { GlobalPrismaClient } from '@formline/db';
import { generateClientId, generateToken, hashAccessToken } from '@formline/tokens';

export interface NewOAuthApplication {
  accountId: string;
  name: string;
  redirectUris: string[];
}

export interface RegisteredOAuthApplication {
  clientId: string;
  clientSecret: string;
}

// Registers an OAuth application for an account, as POST /oauth/applications
// does. Returns the client secret once; only its hash is stored.
export async function registerOAuthApplication(
  db: GlobalPrismaClient,
  application: NewOAuthApplication,
): Promise<RegisteredOAuthApplication> {
  const clientId = generateClientId();
  const clientSecret = generateToken('clientSecret');
  await db.oAuthApplication.create({
    data: {
      id: clientId,
      accountId: application.accountId,
      name: application.name,
      redirectUris: application.redirectUris,
      clientSecretHash: hashAccessToken(clientSecret),
    },
  });
  return { clientId, clientSecret };
}
