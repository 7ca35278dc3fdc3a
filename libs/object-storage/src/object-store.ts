// Where bytes live: uploaded images and respondents' files. Services keep the
// records (who owns what, its type and size); the bytes go to a store, so
// they never travel on NATS (whose messages stop at 1 MB) nor sit in a
// database. Keys are made by our code, never taken from a caller as they are.
export interface ObjectStore {
  /** Writes the object whole (a reader never sees half of it). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or undefined when there is none under that key. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes the objects; keys that hold nothing are fine. */
  delete(keys: readonly string[]): Promise<void>;
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
