import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32).toString('base64'));

  it('seals a secret so that only the key opens it', () => {
    const sealed = box.seal('my secret');
    expect(sealed).not.toContain('my secret');
    expect(box.seal('my secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('my secret');
    expect(() => new SecretBox(randomBytes(32).toString('base64')).open(sealed)).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
