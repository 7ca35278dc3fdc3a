import { z } from 'zod';
import { count, milliseconds, type SettingsOf } from '../setting.builders';
import { fileSizeVars } from './upload-size.vars';

// What libs/http-edge reads (HttpEdgeSettings): the limits of access tokens,
// sign-ins, password checks, failed authentications and submissions, the read
// caches and the upload budgets. The gateway is the one app that serves the
// API through the edge; its schema spreads these groups where they stand in
// the reference.

// Rate limits are counted in Redis, so every gateway replica of a region shares them.
export const rateLimitVars = {
  RATE_LIMIT_REQUESTS: count(600, 'Requests one access token may make per window; 0 turns the limit off.'),
  RATE_LIMIT_WINDOW_MS: milliseconds(60_000, 'Length of the rate-limit window of access tokens.'),
  LOGIN_RATE_LIMIT_ATTEMPTS: count(
    10,
    'Failed sign-ins (OAuth page, email and password routes) per email and window, before refusing; 0 turns it off.',
  ),
  LOGIN_RATE_LIMIT_WINDOW_MS: milliseconds(300_000, 'Length of the sign-in rate-limit window.'),
  LOGIN_RATE_LIMIT_ADDRESS_ATTEMPTS: count(
    100,
    'Failed sign-ins per client address and window (whatever the emails), before refusing; 0 turns it off.',
  ),
  PASSWORD_CHECKS_PER_EMAIL: count(
    20,
    'Password checks (HTTP Basic routes, the OAuth sign-in page) per email and window, right or wrong: each is a scrypt hash in the global service (about 100 ms of a CPU), so this bounds what one account can make the region spend, a script minting tokens with its password included. Over it, 429 with Retry-After before the password is checked. 0 turns it off.',
  ),
  PASSWORD_CHECKS_PER_ADDRESS: count(
    60,
    'Password checks per client address and window (whatever the emails, right or wrong); over it, 429 with Retry-After before the password is checked. 0 turns it off.',
  ),
  PASSWORD_CHECKS_WINDOW_MS: milliseconds(
    60_000,
    'Length of the password-check rate-limit window (whole seconds: rounded up).',
  ),
  AUTH_FAILURE_RATE_LIMIT_PER_ADDRESS: count(
    100,
    'Failed token authentications (a token the global service does not know, or expired, or revoked) one client address may make per window; over it, 429 with Retry-After before any token of theirs is checked. A token cached as valid is never held back. 0 turns it off.',
  ),
  AUTH_FAILURE_RATE_LIMIT_WINDOW_MS: milliseconds(
    60_000,
    'Length of the failed-authentication rate-limit window (whole seconds: rounded up).',
  ),
  AUTH_FAILURE_CACHE_MS: milliseconds(
    30_000,
    'How long a token that failed authentication is answered 401 from memory, without asking the global service again.',
  ),
  SUBMISSION_RATE_LIMIT_PER_ADDRESS: count(
    60,
    'Anonymous submissions one client address may make per window (all forms together); 0 turns it off.',
  ),
  SUBMISSION_RATE_LIMIT_PER_FORM: count(
    3000,
    'Anonymous submissions one form may take per window (all addresses together); 0 turns it off.',
  ),
  SUBMISSION_RATE_LIMIT_WINDOW_MS: milliseconds(
    60_000,
    'Length of the anonymous-submission rate-limit window (whole seconds: rounded up).',
  ),
};

// The gateway's caches of token checks and form reads. Its own region's
// changes reach them at once (announced on NATS); the other region's changes
// only when an entry's lifetime ends, so this is how long a token revoked, or a
// form changed, through the other region's address may still be honoured here.
export const readCacheVars = {
  READ_CACHE_TTL_MS: count(
    5_000,
    "Longest life of a cached token check or form read in the gateway: the bound on seeing the other region's revocations, form changes and removals of workspace members; 0 turns the caches off.",
  ),
  READ_CACHE_MAX_ENTRIES: count(
    2_000,
    'Entries each gateway cache (token checks, form reads, form snapshots) holds at most, the least recently used dropped first.',
  ),
  READ_CACHE_MAX_BYTES: count(
    16 * 1024 * 1024,
    "Bytes each of the gateway's form caches holds at most, the least recently used dropped first: form reads weighed as their JSON, form snapshots (parsed) as four times theirs. With forms near their 384 KiB bound a cache stays this size, not READ_CACHE_MAX_ENTRIES times it.",
  ),
};

// The gateway's budgets of uploads a window (docs/security.md, "Storage
// budgets"): an upload is kept a day before anyone claims it, so what one
// client or one form may send must be bounded in bytes and in files, not only
// in requests.
export const uploadBudgetVars = {
  UPLOAD_BUDGET_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(3_600_000)
    .describe('Length of the window of the upload budgets below (whole seconds: rounded up).'),
  UPLOAD_BYTES_PER_ADDRESS: count(
    100 * 1024 * 1024,
    'Bytes of files one client address may upload without a token per window (all forms together); 0 turns it off.',
  ),
  UPLOAD_FILES_PER_ADDRESS: count(
    50,
    'Files one client address may upload without a token per window (all forms together); 0 turns it off.',
  ),
  UPLOAD_BYTES_PER_FORM: count(
    2 * 1024 * 1024 * 1024,
    'Bytes of files one form may take from uploads without a token per window (all addresses together); 0 turns it off.',
  ),
  UPLOAD_FILES_PER_FORM: count(
    2000,
    'Files one form may take from uploads without a token per window (all addresses together); 0 turns it off.',
  ),
  UPLOAD_BYTES_PER_ACCOUNT: count(
    2 * 1024 * 1024 * 1024,
    'Bytes of files the tokens of one account may upload per window (whatever the form); 0 turns it off.',
  ),
  UPLOAD_FILES_PER_ACCOUNT: count(
    2000,
    'Files the tokens of one account may upload per window (whatever the form); 0 turns it off.',
  ),
};

export type HttpEdgeSettings = SettingsOf<
  typeof rateLimitVars & typeof readCacheVars & typeof fileSizeVars & typeof uploadBudgetVars
>;
