import {
  DeleteObjectsCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
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

// Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...), for
// production, where replicas share no disk. Path-style addressing works with
// every one of them; the EU region's bucket is an EU bucket (its endpoint and
// credentials are that region's configuration).
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3StoreSettings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestHandler: { requestTimeout: settings.requestTimeoutMs ?? 10_000 },
      maxAttempts: 3,
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.keyOf(key),
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }),
      );
      if (!answer.Body) return undefined;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.settings.bucket,
        Delete: { Objects: keys.map((key) => ({ Key: this.keyOf(key) })), Quiet: true },
      }),
    );
  }

  close(): void {
    this.client.destroy();
  }

  private keyOf(key: string): string {
    checkObjectKey(key);
    const prefix = this.settings.prefix;
    return prefix ? `${prefix.endsWith('/') ? prefix.slice(0, -1) : prefix}/${key}` : key;
  }
}
