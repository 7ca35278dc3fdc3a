import type { StorageSettings } from '@formline/config';
import { LocalDiskObjectStore } from './local-disk.store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3.store';

// The store a config names; an `s3` store missing a setting stops the boot
// with the variables' names.
export function objectStoreFrom<P extends string>(prefix: P, config: StorageSettings<P>): ObjectStore {
  const read = (name: string) => (config as Record<string, string | undefined>)[`${prefix}_${name}`];
  if (read('STORAGE') !== 's3') return new LocalDiskObjectStore(read('STORAGE_DIR') ?? '.');
  const required = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
  const missing = required.filter((name) => !read(name)).map((name) => `${prefix}_${name}`);
  if (missing.length > 0) {
    throw new Error(`${prefix}_STORAGE is s3, but these variables are missing: ${missing.join(', ')}`);
  }
  return new S3ObjectStore({
    endpoint: read('S3_ENDPOINT') as string,
    bucket: read('S3_BUCKET') as string,
    region: read('S3_REGION') ?? 'us-east-1',
    accessKeyId: read('S3_ACCESS_KEY_ID') as string,
    secretAccessKey: read('S3_SECRET_ACCESS_KEY') as string,
    prefix: read('S3_PREFIX'),
  });
}
