import http from 'node:http';
import https from 'node:https';
import { DomainError, ErrorCode } from '@formline/errors';
import { UrlRefused, type WebhookUrlPolicy } from '@formline/webhook-delivery';

// Fetches the image a caller names by `url` (POST /images) under the same
// address policy as webhooks: https only (http to allow-listed hosts), never an
// internal, private or reserved address, checked again on the address the
// socket connects to. Redirects are not followed; the body is cut off past
// `maxBytes` and the whole exchange past `timeoutMs`.
export async function fetchImageUrl(
  raw: string,
  policy: WebhookUrlPolicy,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<Buffer> {
  let url: URL;
  try {
    ({ url } = await policy.check(raw));
  } catch (error) {
    throw refused(error instanceof UrlRefused ? error.message : 'the url cannot be reached');
  }
  return new Promise<Buffer>((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'GET',
      headers: { accept: 'image/png, image/jpeg, image/gif' },
      agent: false,
      lookup: policy.connectLookup,
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        response.resume();
        reject(
          refused(
            `the url answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
          ),
        );
        return;
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > limits.maxBytes) {
        request.destroy();
        reject(tooLarge(limits.maxBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limits.maxBytes) {
          request.destroy();
          reject(tooLarge(limits.maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', () => reject(refused('the url broke off its answer')));
    });
    request.on('error', (error) => {
      if (error instanceof UrlRefused) reject(refused(error.message));
      else if (error.name === 'TimeoutError' || error.name === 'AbortError')
        reject(refused(`the url did not answer within ${limits.timeoutMs} ms`));
      else reject(refused('the url cannot be reached'));
    });
    request.end();
  });
}

function refused(reason: string): DomainError {
  const description = `The image cannot be fetched from url: ${reason}.`;
  return new DomainError(ErrorCode.ValidationError, description, [
    { code: 'INVALID_URL', description, field: 'url', in: 'body' },
  ]);
}

export function tooLarge(maxBytes: number): DomainError {
  return new DomainError(ErrorCode.PayloadTooLarge, `The image is larger than ${maxBytes} bytes.`);
}
