import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificate {
  /** The certificate (PEM); self-signed, so it is also the CA file that trusts it. */
  certFile: string;
  keyFile: string;
}

// A throw-away self-signed server certificate for 127.0.0.1 and localhost,
// made with Debian's openssl in a few milliseconds: TLS servers in tests
// (Redis, NATS) present it, and the apps trust it as their CA file.
export function makeTestCertificate(dir: string): TestCertificate {
  mkdirSync(dir, { recursive: true });
  const certFile = path.join(dir, 'server.pem');
  const keyFile = path.join(dir, 'server.key');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
