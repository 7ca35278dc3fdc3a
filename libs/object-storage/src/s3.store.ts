import { pipeline, type Readable } from 'node:stream';
import type * as AwsS3 from '@aws-sdk/client-s3';
import { ExactLengthStream } from './exact-length.stream';
import { checkObjectKey, type ObjectStore, type StoredObject } from './object-store';

export interface S3StoreSettings {
  /** The service's address, e.g. https://s3.eu-central-1.amazonaws.com or a MinIO server. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Optional key prefix, so one bucket may hold several stores. */
  prefix?: string;
  requestTimeoutMs?: number;
}

type S3Sdk = typeof AwsS3;
type S3Client = AwsS3.S3Client;
interface S3Connection {
  sdk: S3Sdk;
  client: S3Client;
  // Streamed writes are sent once: a body read as it comes cannot be read again for a retry.
  onceClient: S3Client;
}

// Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...), for
// production, where replicas share no disk. Path-style addressing works with
// every one of them; the EU region's bucket is an EU bucket (its endpoint and
// credentials are that region's configuration). The AWS SDK (about 13 MB of
// memory) is loaded on the store's first use, not when the app starts.
export class S3ObjectStore implements ObjectStore {
  private connection?: Promise<S3Connection>;
  private closed = false;

  constructor(private readonly settings: S3StoreSettings) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.keyOf(key),
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
  }

  // An S3 object exists once its PUT completes: a body that fails or is not
  // the length declared aborts the request, and nothing is stored.
  async putStream(key: string, body: Readable, contentType: string, length: number): Promise<void> {
    const { sdk, onceClient } = await this.connect();
    const counted = new ExactLengthStream(length);
    const abort = new AbortController();
    // A body that fails, is cut off or is not the length declared aborts the PUT.
    pipeline(body, counted, (error) => {
      if (error) abort.abort(error);
    });
    try {
      await onceClient.send(
        new sdk.PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.keyOf(key),
          Body: counted,
          ContentType: contentType,
          ContentLength: length,
        }),
        { abortSignal: abort.signal },
      );
    } catch (error) {
      counted.destroy();
      throw abort.signal.aborted ? (abort.signal.reason as Error) : error;
    }
  }

  async open(key: string): Promise<StoredObject | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }),
      );
      if (!answer.Body || answer.ContentLength === undefined) return undefined;
      return { size: answer.ContentLength, body: answer.Body as Readable };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey) return undefined;
      if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }),
      );
      if (!answer.Body) return undefined;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (error instanceof sdk.NoSuchKey) return undefined;
      if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.DeleteObjectsCommand({
        Bucket: this.settings.bucket,
        Delete: { Objects: keys.map((key) => ({ Key: this.keyOf(key) })), Quiet: true },
      }),
    );
  }

  close(): void {
    this.closed = true;
    void this.connection?.then(({ client, onceClient }) => {
      client.destroy();
      onceClient.destroy();
    });
  }

  private connect(): Promise<S3Connection> {
    if (this.closed) return Promise.reject(new Error('the S3 store is closed'));
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => {
      const make = (maxAttempts: number) =>
        new sdk.S3Client({
          endpoint: this.settings.endpoint,
          region: this.settings.region,
          forcePathStyle: true,
          credentials: {
            accessKeyId: this.settings.accessKeyId,
            secretAccessKey: this.settings.secretAccessKey,
          },
          requestHandler: { requestTimeout: this.settings.requestTimeoutMs ?? 10_000 },
          maxAttempts,
        });
      return { sdk, client: make(3), onceClient: make(1) };
    });
    return this.connection;
  }

  private keyOf(key: string): string {
    checkObjectKey(key);
    const prefix = this.settings.prefix;
    return prefix ? `${prefix.endsWith('/') ? prefix.slice(0, -1) : prefix}/${key}` : key;
  }
}
