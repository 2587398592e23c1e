import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { assertKey, type ObjectStorage, type StoredBody, type StoredObject } from './storage';

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Objects in an S3-compatible bucket through the official SDK. The SHA-256 travels twice: as
 * `x-amz-checksum-sha256` (the server verifies what it received) and as user metadata `sha256` (hex, what
 * `head` answers without reading the object).
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    const config: S3ClientConfig = {
      region: settings.region || 'us-east-1',
      forcePathStyle: settings.forcePathStyle ?? false,
      // Checksums only where an operation needs them (we send our own SHA-256): several S3-compatible servers
      // reject the SDK's default CRC32 trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    };
    this.client = new S3Client(config);
  }

  async put(key: string, body: Uint8Array, { contentType = 'application/octet-stream' } = {}): Promise<StoredObject> {
    const digest = createHash('sha256').update(body).digest();
    const sha256 = digest.toString('hex');
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: assertKey(key),
        Body: body,
        ContentLength: body.byteLength,
        ContentType: contentType,
        ChecksumSHA256: digest.toString('base64'),
        Metadata: { sha256 },
      }),
    );
    return { key, size: body.byteLength, sha256, contentType };
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
      return { key, size: out.ContentLength ?? 0, sha256: out.Metadata?.sha256 ?? '', contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async get(key: string): Promise<StoredBody | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
      if (!out.Body) return null;
      return {
        key,
        size: out.ContentLength ?? 0,
        sha256: out.Metadata?.sha256 ?? '',
        contentType: out.ContentType ?? 'application/octet-stream',
        body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>,
      };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
  }

  async *list(prefix?: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const out = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const object of out.Contents ?? []) if (object.Key) yield object.Key;
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }
}
