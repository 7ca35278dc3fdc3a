import type { AccessTokenPrincipal, AccountOwner } from '@formline/contracts';
import type { UploadReservation } from '../rate-limit/upload-reservation';

// A request after AccessGuard: who is calling, as the route's access kind says.
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The client's address: the socket's, or X-Forwarded-For's from a trusted proxy (TRUSTED_PROXIES). */
  ip: string;
  /** Its id (X-Request-Id), passed on with every NATS call. */
  requestId: string;
  /** The route's path parameters (the anonymous budgets count per `form_id`). */
  params?: Record<string, string | undefined>;
  /** Set once the route's access declaration let the request through. */
  accessDecided?: boolean;
  principal?: AccessTokenPrincipal;
  owner?: AccountOwner;
  /** What an upload holds of its caller's upload budgets (@UploadBudget routes). */
  uploadReservation?: UploadReservation;
}
