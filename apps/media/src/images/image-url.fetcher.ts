import { DomainError, ErrorCode } from '@formline/errors';
import {
  type CheckedTarget,
  checkTarget,
  type HostResolver,
  type OutboundUrlPolicy,
  requestTo,
  resolveHost,
  UrlRefused,
} from '@formline/outbound-url';

// Fetches the image a caller names by `url` (POST /images) under the same
// address policy as webhooks: https only (http to allow-listed hosts), never an
// internal, private or reserved address, the socket connecting only to the
// addresses checked (checkTarget). Redirects are not
// followed; the body is cut off past `maxBytes`, and the whole exchange, the
// look-up included, past `timeoutMs`.
export async function fetchImageUrl(
  raw: string,
  policy: OutboundUrlPolicy,
  limits: { maxBytes: number; timeoutMs: number },
  resolver: HostResolver = resolveHost,
): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const late = () => refused(`the url did not answer within ${limits.timeoutMs} ms`);
  let target: CheckedTarget;
  try {
    target = await checkTarget(raw, policy, signal, resolver);
  } catch (error) {
    if (signal.aborted) throw late();
    throw refused(error instanceof UrlRefused ? error.message : 'the url cannot be reached');
  }
  return new Promise<Buffer>((resolve, reject) => {
    const request = requestTo(target, {
      method: 'GET',
      headers: { accept: 'image/png, image/jpeg, image/gif' },
      agent: false,
      signal,
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
      else if (signal.aborted) reject(late());
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
