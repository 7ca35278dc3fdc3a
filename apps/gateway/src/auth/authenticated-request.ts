import type { AccessTokenPrincipal, AccountOwner } from '@formline/contracts';

// A request after AccessGuard: who is calling, as the route's access kind says.
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: AccessTokenPrincipal;
  owner?: AccountOwner;
}
