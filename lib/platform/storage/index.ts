import path from 'node:path';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './storage';

export { LocalStorage } from './local';
export { S3Storage, type S3Settings } from './s3';
export * from './storage';

const truthy = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());

/**
 * The store the environment describes: S3-compatible when S3_BUCKET is set (S3_ENDPOINT, S3_REGION,
 * S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE), else files under STORAGE_DIR
 * (default .data/storage).
 */
export function storageFromEnv(env: Record<string, string | undefined> = process.env): ObjectStorage {
  if (env.S3_BUCKET) {
    return new S3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT || undefined,
      region: env.S3_REGION || undefined,
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: truthy(env.S3_FORCE_PATH_STYLE),
    });
  }
  // A runtime directory, not a source file: the bundler must not trace it.
  return new LocalStorage(path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.STORAGE_DIR || '.data/storage'));
}

const key = Symbol.for('paraphe.storage');
type G = typeof globalThis & { [key]?: ObjectStorage };

/** One store per process (the S3 client keeps its connections), from the environment at first use. */
export function getStorage(): ObjectStorage {
  const g = globalThis as G;
  g[key] ??= storageFromEnv();
  return g[key];
}

/** Tests: use this store instead of the environment's. */
export function setStorage(storage: ObjectStorage | undefined) {
  (globalThis as G)[key] = storage;
}

export { startFakeS3 } from './fake-s3';
