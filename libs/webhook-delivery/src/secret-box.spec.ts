import { createCipheriv, randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const newKey = () => randomBytes(32).toString('base64');

// What SecretBox sealed before key ids existed: v1.<iv>.<tag>.<ciphertext>.
function sealV1(base64Key: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(base64Key, 'base64'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

describe('SecretBox', () => {
  const box = new SecretBox(newKey());

  it('seals a secret so that only the key opens it', () => {
    const sealed = box.seal('my secret');
    expect(sealed).not.toContain('my secret');
    expect(box.seal('my secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('my secret');
    expect(() => new SecretBox(newKey()).open(sealed)).toThrow();
  });

  it('answers from what it opened before only for the very same sealed text', () => {
    const sealed = box.seal('kept');
    expect(box.open(sealed)).toBe('kept');
    const [version, id, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([version, id, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    for (let n = 0; n < 1100; n++) box.open(box.seal(`other ${n}`));
    expect(box.open(sealed)).toBe('kept');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });

  describe('with several keys (rotation)', () => {
    const [oldKey, newerKey] = [newKey(), newKey()];
    const before = new SecretBox([{ id: 'k1', key: oldKey }]);
    const after = new SecretBox([
      { id: 'k2', key: newerKey },
      { id: 'k1', key: oldKey },
    ]);

    it('seals with the newest key, naming it, and opens with any key of the ring', () => {
      const old = before.seal('rotated');
      expect(old.startsWith('v2.k1.')).toBe(true);
      const fresh = after.seal('rotated');
      expect(fresh.startsWith('v2.k2.')).toBe(true);
      expect(after.open(old)).toBe('rotated');
      expect(after.open(fresh)).toBe('rotated');
      expect(after.isCurrent(fresh)).toBe(true);
      expect(after.isCurrent(old)).toBe(false);
      // Without the old key, its secrets stay closed, saying which key is missing.
      expect(() => new SecretBox([{ id: 'k2', key: newerKey }]).open(old)).toThrow(/k1/);
    });

    it('opens secrets sealed before key ids existed with whichever key fits', () => {
      const legacy = sealV1(oldKey, 'from v1');
      expect(after.open(legacy)).toBe('from v1');
      expect(after.isCurrent(legacy)).toBe(false);
      expect(() => new SecretBox([{ id: 'k2', key: newerKey }]).open(legacy)).toThrow(/no configured/);
    });

    it('refuses two keys with one id', () => {
      expect(
        () =>
          new SecretBox([
            { id: 'a', key: oldKey },
            { id: 'a', key: newerKey },
          ]),
      ).toThrow(/differ/);
    });
  });
});
