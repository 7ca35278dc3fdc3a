import {
  commaList,
  count,
  fileSizeVars,
  httpServerVars,
  imageSizeVars,
  logVars,
  mediaForwardingVars,
  milliseconds,
  natsVars,
  opsVars,
  rateLimitVars,
  readCacheVars,
  redisVars,
  regionVars,
  shutdownVars,
  uploadBudgetVars,
} from '@formline/config';
import { z } from 'zod';

// Every setting the gateway reads: the groups it shares with other apps or
// hands to libs/http-edge (libs/config), and its own below.
export const gatewayConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...redisVars,
  ...rateLimitVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  HTTP_HOST: httpServerVars.HTTP_HOST.describe('Address the public HTTP server listens on.'),
  HTTP_PORT: httpServerVars.HTTP_PORT.describe('Port of the public HTTP API.'),
  DEMO_FORM_ID: z
    .string()
    .max(64)
    .default('')
    .describe(
      'A form the home page of the base address (`GET /`) links as one to try; `npm start` names its demo form. Empty: none.',
    ),
  TRUSTED_PROXIES: commaList(
    'Addresses or CIDR ranges of the proxies in front of the gateway (the ingress controller), comma separated. Only a request from one of them has its X-Forwarded-For believed, for rate limits per client address; empty: the socket address is the client.',
  ),
  // Load shedding in the gateway: when it is over either bound, a new request is
  // answered 503 with Retry-After at once instead of queueing behind the others,
  // so a burst or a retry storm after an outage cannot starve the process into
  // timeouts for everyone (health and metrics are on the ops port, never shed).
  GATEWAY_MAX_IN_FLIGHT: count(
    1_000,
    'Requests one gateway handles at once; over it, new requests are answered 503 with Retry-After. 0: no bound.',
  ),
  GATEWAY_MAX_EVENT_LOOP_DELAY_MS: count(
    1_000,
    'Mean event-loop delay (over half a second) above which the gateway sheds new requests with 503 and Retry-After: the process is short of CPU and every queued request would only wait longer. 0: no bound.',
  ),
  // Time limits on each phase of a request in the gateway. Without them a client
  // that is slow on purpose (headers or a body a byte at a time, a socket left
  // silent) holds a socket, and the work waiting behind it, for as long as it
  // likes. A request cut off before anything was answered gets 408 with the error body.
  GATEWAY_HEADERS_TIMEOUT_MS: milliseconds(
    10_000,
    "Longest a client may take to send a request's headers; then 408 and the socket is closed.",
  ),
  GATEWAY_REQUEST_TIMEOUT_MS: milliseconds(
    60_000,
    "Longest a client may take to send a whole request, headers and body (a respondent's 10 MiB file on a slow line must fit); then 408 and the socket is closed.",
  ),
  GATEWAY_IDLE_TIMEOUT_MS: milliseconds(
    30_000,
    'Longest a socket may stay silent while a request is being received or answered; then 408 if nothing was answered yet, and the socket is closed.',
  ),
  GATEWAY_KEEP_ALIVE_TIMEOUT_MS: milliseconds(
    72_000,
    'Longest an idle keep-alive socket is kept open between requests; above the 60 s idle timeout of the usual load balancers, so the gateway never closes a socket the balancer is about to reuse.',
  ),
  ...readCacheVars,
  ...imageSizeVars,
  MEDIA_URL: z
    .url()
    .describe(
      "Address of this region's media app, to which the gateway forwards the image routes and streams respondents' files once it has let a request in (http, inside the region).",
    ),
  ...fileSizeVars,
  ...uploadBudgetVars,
  ...mediaForwardingVars,
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

// The token the gateway app injects its parsed config by.
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
