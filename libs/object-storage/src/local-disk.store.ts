import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ExactLengthStream } from './exact-length.stream';
import { checkObjectKey, type ObjectStore, type StoredObject } from './object-store';

// Objects as files under one directory (the default: a region's data
// directory on its own disk). Written to a temporary name and renamed, so a
// crash leaves either the whole object or none.
export class LocalDiskObjectStore implements ObjectStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: Buffer, _contentType?: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = temporaryOf(path);
    await writeFile(temporary, body);
    await rename(temporary, path);
  }

  // The temporary file is removed when the body fails or is not the length
  // declared: only a whole body is ever renamed into place.
  async putStream(key: string, body: Readable, _contentType: string, length: number): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = temporaryOf(path);
    try {
      await pipeline(body, new ExactLengthStream(length), createWriteStream(temporary));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  // Opened before it is measured: a delete in between leaves the open file readable whole.
  async open(key: string): Promise<StoredObject | undefined> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { size, body: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  private pathOf(key: string): string {
    return join(this.root, ...checkObjectKey(key).split('/'));
  }
}

function temporaryOf(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}.part`;
}
