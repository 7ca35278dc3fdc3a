import type { Readable } from 'node:stream';

// Where bytes live: uploaded images and respondents' files. Services keep the
// records (who owns what, its type and size); the bytes go to a store, so
// they never travel on NATS (whose messages stop at 1 MB) nor sit in a
// database. Keys are made by our code, never taken from a caller as they are.
export interface ObjectStore {
  /** Writes the object whole (a reader never sees half of it). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Writes exactly `length` bytes read from `body` as they come, never
   * holding more than a chunk or two: the object is stored whole or not at
   * all (a body that ends short, runs past `length` or fails leaves nothing,
   * and the promise rejects).
   */
  putStream(key: string, body: Readable, contentType: string, length: number): Promise<void>;
  /** The object's bytes, or undefined when there is none under that key. */
  get(key: string): Promise<Buffer | undefined>;
  /** The object as a stream with its size, or undefined when there is none under that key. */
  open(key: string): Promise<StoredObject | undefined>;
  /** Removes the objects; keys that hold nothing are fine. */
  delete(keys: readonly string[]): Promise<void>;
}

export interface StoredObject {
  size: number;
  body: Readable;
}

// Keys are `/`-separated segments of letters, digits, `.`, `_` and `-`, none
// of them `.` or `..`: safe as a path under a directory and as an S3 key.
const segment = /^[\w.-]{1,200}$/;

export function checkObjectKey(key: string): string {
  const parts = key.split('/');
  if (key.length > 1024 || parts.some((part) => !segment.test(part) || part === '.' || part === '..')) {
    throw new Error(`invalid object key: ${JSON.stringify(key.slice(0, 100))}`);
  }
  return key;
}
