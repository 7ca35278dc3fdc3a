import { createHash } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// An HTTP proxy in front of an S3-compatible test server (s3rver) that checks
// what real S3 checks and s3rver does not: every request body's integrity
// headers. It recomputes each checksum the client sent (x-amz-checksum-crc32,
// -crc32c, -sha256, -sha1, Content-MD5, and the signed x-amz-content-sha256)
// over the bytes it received, in plain bodies and in aws-chunked bodies with a
// trailing checksum, and answers S3's 400 BadDigest on a mismatch instead of
// passing the request on; an aws-chunked body (a streamed upload) reaches
// s3rver as its payload, which S3 would store and s3rver cannot decode. Every
// request with a body is recorded with what was verified, so a test can also
// prove that the client sent a checksum at all.

export interface CheckedS3Request {
  method: string;
  path: string;
  bodyBytes: number;
  /** The integrity headers verified, e.g. ['x-amz-checksum-crc32', 'x-amz-content-sha256']. */
  verified: string[];
  /** The checks that failed (the request was refused with BadDigest). */
  mismatched: string[];
}

export class S3ChecksumProxy {
  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    readonly requests: CheckedS3Request[],
  ) {}

  static async start(target: string): Promise<S3ChecksumProxy> {
    const upstream = new URL(target);
    const requests: CheckedS3Request[] = [];
    const server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const raw = Buffer.concat(chunks);
        const checked = checkBody(incoming.method ?? 'GET', incoming.url ?? '/', incoming.headers, raw);
        if (raw.length > 0) requests.push(checked);
        if (checked.mismatched.length > 0) {
          outgoing
            .writeHead(400, { 'content-type': 'application/xml' })
            .end(
              `<?xml version="1.0" encoding="UTF-8"?><Error><Code>BadDigest</Code><Message>${checked.mismatched.join(', ')} does not match the body</Message></Error>`,
            );
          return;
        }
        // S3 stores an aws-chunked body's payload, s3rver the body as it came:
        // it is given the payload, as S3 would keep it.
        const chunked = /aws-chunked/.test(String(incoming.headers['content-encoding'] ?? ''));
        const body = chunked ? decodeAwsChunked(raw).payload : raw;
        const headers = { ...incoming.headers };
        if (chunked) {
          delete headers['transfer-encoding'];
          headers['content-length'] = String(body.length);
        }
        const forwarded = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: incoming.method,
            path: incoming.url,
            headers,
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forwarded.on('error', () => outgoing.writeHead(502).end());
        forwarded.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new S3ChecksumProxy(server, `http://127.0.0.1:${port}`, requests);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// What one request's body proves. Exported for its unit test.
export function checkBody(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  raw: Buffer,
): CheckedS3Request {
  const checked: CheckedS3Request = { method, path, bodyBytes: raw.length, verified: [], mismatched: [] };
  const chunked = /aws-chunked/.test(String(headers['content-encoding'] ?? ''));
  const { payload, trailers } = chunked ? decodeAwsChunked(raw) : { payload: raw, trailers: {} };
  const sent: Record<string, string> = { ...trailers };
  for (const name of Object.keys(checksums)) {
    const value = headers[name];
    if (typeof value === 'string') sent[name] = value;
  }
  const md5 = headers['content-md5'];
  if (typeof md5 === 'string') sent['content-md5'] = md5;
  for (const [name, value] of Object.entries(sent)) {
    const compute = name === 'content-md5' ? digestOf('md5') : checksums[name];
    if (!compute) continue;
    (compute(payload) === value ? checked.verified : checked.mismatched).push(name);
  }
  // The SigV4 payload hash, when it is one (not UNSIGNED-PAYLOAD or a streaming mode).
  const signed = headers['x-amz-content-sha256'];
  if (typeof signed === 'string' && /^[0-9a-f]{64}$/.test(signed)) {
    (createHash('sha256').update(raw).digest('hex') === signed ? checked.verified : checked.mismatched).push(
      'x-amz-content-sha256',
    );
  }
  return checked;
}

const digestOf = (algorithm: string) => (body: Buffer) => createHash(algorithm).update(body).digest('base64');

const checksums: Record<string, (body: Buffer) => string> = {
  'x-amz-checksum-crc32': (body) => crcBase64(body, crc32Table),
  'x-amz-checksum-crc32c': (body) => crcBase64(body, crc32cTable),
  'x-amz-checksum-sha256': digestOf('sha256'),
  'x-amz-checksum-sha1': digestOf('sha1'),
};

// aws-chunked: `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n` ... `0\r\n`,
// then trailer lines `name:value\r\n` and a blank line.
function decodeAwsChunked(raw: Buffer): { payload: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0], 16);
    at = lineEnd + 2;
    if (!(size > 0)) break;
    parts.push(raw.subarray(at, at + size));
    at += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (const line of raw.subarray(at).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { payload: Buffer.concat(parts), trailers };
}

function crcTable(polynomial: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? polynomial ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

const crc32Table = crcTable(0xedb88320);
const crc32cTable = crcTable(0x82f63b78);

function crcBase64(body: Buffer, table: Uint32Array): string {
  let crc = 0xffffffff;
  for (const byte of body) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}
