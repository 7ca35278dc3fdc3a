import type * as AwsS3 from '@aws-sdk/client-s3';
import { checkObjectKey, type ObjectStore } from './object-store';

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

// Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...), for
// production, where replicas share no disk. Path-style addressing works with
// every one of them; the EU region's bucket is an EU bucket (its endpoint and
// credentials are that region's configuration). The AWS SDK (about 13 MB of
// memory) is loaded on the store's first use, not when the app starts.
export class S3ObjectStore implements ObjectStore {
  private connection?: Promise<{ sdk: S3Sdk; client: S3Client }>;
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
    void this.connection?.then(({ client }) => client.destroy());
  }

  private connect(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    if (this.closed) return Promise.reject(new Error('the S3 store is closed'));
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: this.settings.endpoint,
        region: this.settings.region,
        forcePathStyle: true,
        credentials: {
          accessKeyId: this.settings.accessKeyId,
          secretAccessKey: this.settings.secretAccessKey,
        },
        requestHandler: { requestTimeout: this.settings.requestTimeoutMs ?? 10_000 },
        maxAttempts: 3,
      }),
    }));
    return this.connection;
  }

  private keyOf(key: string): string {
    checkObjectKey(key);
    const prefix = this.settings.prefix;
    return prefix ? `${prefix.endsWith('/') ? prefix.slice(0, -1) : prefix}/${key}` : key;
  }
}
