import { z } from 'zod';

// The gateway and the media app: the gateway signs every request it hands to
// media (the caller's account, the path, when), and media serves only what
// carries a valid signature, so that reaching media's port is not enough to
// read respondents' files or act as an account.
export const mediaForwardingVars = {
  MEDIA_FORWARDING_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'expected 32 bytes, base64 encoded')
    .describe(
      "Key the gateway signs the requests it forwards to the region's media app with, and media checks them with (HMAC-SHA256): 32 random bytes, base64 (`openssl rand -base64 32`), the same on the region's gateway and media. Keep it in a Secret.",
    ),
};
