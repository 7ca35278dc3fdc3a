import { createHmac } from 'node:crypto';

// The two ways a receiver can check that a delivery is ours and unchanged.
// Both use the webhook's secret, as UTF-8 bytes, as the HMAC-SHA256 key, over
// the exact bytes of the body sent.

// Typeform's scheme: `Typeform-Signature: sha256=<base64 HMAC(secret, body)>`.
export function typeformSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('base64')}`;
}

// Standard Webhooks (standardwebhooks.com): `webhook-signature: v1,<base64
// HMAC(key, "<webhook-id>.<webhook-timestamp>.<body>")>`. Libraries of that
// standard verify it with the secret given as raw bytes (or `whsec_` + base64 of it).
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const signed = `${id}.${timestamp}.${body}`;
  return `v1,${createHmac('sha256', secret).update(signed, 'utf8').digest('base64')}`;
}
