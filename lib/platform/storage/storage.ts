import { createHash } from 'node:crypto';

/** What the store knows of an object: its size and SHA-256 (lowercase hex), computed when it was put. */
export interface StoredObject {
  key: string;
  size: number;
  sha256: string;
  contentType: string;
}

export interface StoredBody extends StoredObject {
  body: ReadableStream<Uint8Array>;
}

/**
 * An object store addressed by key. Keys are built by our code from ids (`objectKey`), never taken from a
 * request, and are checked again here: a key that could escape its folder is refused.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Uint8Array, options?: { contentType?: string }): Promise<StoredObject>;
  /** The object and its body as a stream, or null when absent. */
  get(key: string): Promise<StoredBody | null>;
  head(key: string): Promise<StoredObject | null>;
  /** Idempotent: deleting an absent key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every stored key (under `prefix` when given): the backup walks the whole store. Both stores have it; a test
   * double may leave it out (the backup then refuses the store).
   */
  list?(prefix?: string): AsyncIterable<string>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key ${JSON.stringify(key)}: lower-case letters, digits, ".", "_" and "-" in "/"-separated segments.`);
    this.name = 'InvalidKeyError';
  }
}

export function assertKey(key: string): string {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) throw new InvalidKeyError(key);
  return key;
}

/** A key from trusted parts (ids, a kind): `objectKey('documents', orgId, docId, `${uuid}.pdf`)`. */
export function objectKey(...parts: string[]): string {
  return assertKey(parts.map((p) => p.toLowerCase()).join('/'));
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Reads a whole stream (tests, small objects). */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
