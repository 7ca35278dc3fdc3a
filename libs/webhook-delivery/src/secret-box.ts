import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Webhook secrets at rest: the API gives a webhook's secret back, so it must be
// recoverable, but a copy of the database alone must not reveal it.
// AES-256-GCM under a ring of keys (WEBHOOK_SECRET_KEYS): the newest key seals,
// any key of the ring opens, so a key can be rotated without downtime:
//   v2.<key id>.<iv>.<tag>.<ciphertext>   (base64url parts) sealed today
//   v1.<iv>.<tag>.<ciphertext>            sealed before key ids existed; opened
//                                         by whichever key of the ring fits
// (GCM's tag refuses a wrong key, so trying each is safe.)
export interface SecretKey {
  id: string;
  /** 32 bytes, base64. */
  key: string;
}

const keyIdPattern = /^[A-Za-z0-9_-]{1,32}$/;

// Secrets opened lately, by their sealed text (which names its key and IV):
// the dispatcher opens the same few secrets for every delivery. The ring is
// fixed for the life of the process, so an entry never goes stale.
const openedCacheSize = 1000;

export class SecretBox {
  private readonly keys: { id: string; key: Buffer }[];
  private readonly opened = new Map<string, string>();

  /** `keys` newest first; a single base64 key is a ring of one, named `default`. */
  constructor(keys: string | readonly SecretKey[]) {
    const ring = typeof keys === 'string' ? [{ id: 'default', key: keys }] : keys;
    if (ring.length === 0) throw new Error('WEBHOOK_SECRET_KEYS needs at least one key');
    this.keys = ring.map(({ id, key }) => {
      const bytes = Buffer.from(key, 'base64');
      if (bytes.length !== 32) throw new Error(`webhook secret key ${id} must be 32 bytes, base64 encoded`);
      if (!keyIdPattern.test(id))
        throw new Error(`webhook secret key id ${id}: letters, digits, _ and - only`);
      return { id, key: bytes };
    });
    if (new Set(this.keys.map((k) => k.id)).size !== this.keys.length)
      throw new Error('webhook secret key ids must differ');
  }

  /** The id of the key that seals: the newest. */
  get currentKeyId(): string {
    return this.keys[0].id;
  }

  seal(plain: string): string {
    const { id, key } = this.keys[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', id, ...[iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'))].join('.');
  }

  open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.openSealed(sealed);
      // The oldest entry makes room (a Map keeps insertion order).
      if (this.opened.size >= openedCacheSize) this.opened.delete(this.opened.keys().next().value!);
      this.opened.set(sealed, plain);
    }
    return plain;
  }

  private openSealed(sealed: string): string {
    const parts = sealed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const key = this.keys.find((candidate) => candidate.id === parts[1]);
      if (!key) throw new Error(`sealed with webhook secret key ${parts[1]}, which is not configured`);
      return decrypt(key.key, parts[2], parts[3], parts[4]);
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      for (const { key } of this.keys) {
        try {
          return decrypt(key, parts[1], parts[2], parts[3]);
        } catch {
          // Not this key: try the next one.
        }
      }
      throw new Error('no configured webhook secret key opens this secret');
    }
    throw new Error('unknown sealed secret format');
  }

  /** Whether `sealed` is already sealed with the newest key (nothing to re-seal). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2.${this.currentKeyId}.`);
  }
}

function decrypt(key: Buffer, iv: string, tag: string, data: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * `id:base64key,id:base64key`, newest first (WEBHOOK_SECRET_KEYS). Key ids are
 * written into every sealed secret, so an id must never be reused for another key.
 */
export function parseSecretKeys(value: string): SecretKey[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(':');
      if (colon < 1) throw new Error('expected id:base64key entries, comma separated');
      return { id: entry.slice(0, colon), key: entry.slice(colon + 1) };
    });
}
