import { createHash } from 'node:crypto';
import { checkBody } from './s3-checksum-proxy';

// The proxy's checks against known values: CRC32("123456789") is 0xCBF43926,
// CRC32C("123456789") is 0xE3069283 (the algorithms' check values).
describe('checkBody', () => {
  const body = Buffer.from('123456789');
  const crc32 = Buffer.from('cbf43926', 'hex').toString('base64');
  const crc32c = Buffer.from('e3069283', 'hex').toString('base64');
  const md5 = createHash('md5').update(body).digest('base64');
  const sha256hex = createHash('sha256').update(body).digest('hex');

  it('verifies the checksums sent in headers over a plain body', () => {
    const checked = checkBody(
      'PUT',
      '/b/k',
      {
        'x-amz-checksum-crc32': crc32,
        'x-amz-checksum-crc32c': crc32c,
        'content-md5': md5,
        'x-amz-content-sha256': sha256hex,
      },
      body,
    );
    expect(checked.mismatched).toEqual([]);
    expect(checked.verified.sort()).toEqual(
      ['content-md5', 'x-amz-checksum-crc32', 'x-amz-checksum-crc32c', 'x-amz-content-sha256'].sort(),
    );
  });

  it('finds a body that does not match its checksums', () => {
    const changed = Buffer.from('123456780');
    const checked = checkBody('PUT', '/b/k', { 'x-amz-checksum-crc32': crc32, 'content-md5': md5 }, changed);
    expect(checked.mismatched.sort()).toEqual(['content-md5', 'x-amz-checksum-crc32']);
  });

  it('reads an aws-chunked body and its trailing checksum', () => {
    const chunked = Buffer.from(`4\r\n1234\r\n5\r\n56789\r\n0\r\nx-amz-checksum-crc32:${crc32}\r\n\r\n`);
    const headers = {
      'content-encoding': 'aws-chunked',
      'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
    };
    expect(checkBody('PUT', '/b/k', headers, chunked)).toMatchObject({
      verified: ['x-amz-checksum-crc32'],
      mismatched: [],
    });
    const bad = Buffer.from(`4\r\n1234\r\n5\r\n56788\r\n0\r\nx-amz-checksum-crc32:${crc32}\r\n\r\n`);
    expect(checkBody('PUT', '/b/k', headers, bad).mismatched).toEqual(['x-amz-checksum-crc32']);
  });
});
