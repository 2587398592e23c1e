import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeS3, type FakeS3 } from './fake-s3';
import { LocalStorage, type ObjectStorage, objectKey, readAll, S3Storage, storageFromEnv } from './index';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The contract every store meets, run against each adapter. */
function contract(name: string, make: () => ObjectStorage) {
  describe(name, () => {
    it('puts, heads, gets and deletes by key, with size and SHA-256', async () => {
      const storage = make();
      const key = objectKey('documents', randomUUID(), randomUUID(), `${randomUUID()}.pdf`);
      const body = new TextEncoder().encode(`%PDF-1.7 ${'x'.repeat(70_000)} é`);
      const put = await storage.put(key, body, { contentType: 'application/pdf' });
      expect(put).toEqual({ key, size: body.byteLength, sha256: sha(body), contentType: 'application/pdf' });
      expect(await storage.head(key)).toEqual(put);
      const got = await storage.get(key);
      expect(got && { ...got, body: undefined }).toEqual({ ...put, body: undefined });
      expect(sha(await readAll(got!.body))).toBe(put.sha256);

      await storage.delete(key);
      expect(await storage.head(key)).toBeNull();
      expect(await storage.get(key)).toBeNull();
      await storage.delete(key); // idempotent
    });

    it('lists every stored key, under a prefix too (the backup walks the store)', async () => {
      const storage = make();
      const prefix = objectKey('listing', randomUUID());
      const keys = Array.from({ length: 3 }, (_, i) => `${prefix}/${i}/${randomUUID()}.pdf`);
      for (const key of keys) await storage.put(key, new Uint8Array([1, 2]));
      const listed: string[] = [];
      for await (const key of storage.list!(prefix)) listed.push(key);
      expect(listed.sort()).toEqual([...keys].sort());
      const all: string[] = [];
      for await (const key of storage.list!()) all.push(key);
      expect(all).toEqual(expect.arrayContaining(keys));
      expect(all.some((k) => k.endsWith('.meta.json') || k.endsWith('.tmp'))).toBe(false);
    });

    it('overwrites a key as a whole', async () => {
      const storage = make();
      const key = objectKey('tests', `${randomUUID()}.bin`);
      await storage.put(key, new Uint8Array([1, 2, 3]));
      const second = await storage.put(key, new Uint8Array([4, 5]));
      expect(await storage.head(key)).toEqual(second);
      expect([...(await readAll((await storage.get(key))!.body))]).toEqual([4, 5]);
    });

    it('refuses keys that could escape or come from user input', async () => {
      const storage = make();
      for (const bad of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'A/B', 'a b', '', 'a/./b']) {
        await expect(storage.put(bad, new Uint8Array([1]))).rejects.toThrow(/Invalid storage key/);
        await expect(storage.get(bad)).rejects.toThrow(/Invalid storage key/);
      }
    });
  });
}

let dir: string;
let s3: FakeS3;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-storage-'));
  s3 = await startFakeS3();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await s3.close();
});

contract('LocalStorage', () => new LocalStorage(dir));
contract('S3Storage (official SDK against a local fake S3)', () =>
  storageFromEnv({
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'eu-west-3',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  }),
);

describe('adapters', () => {
  it('local writes atomically: no temporary file is left beside the object', async () => {
    const storage = new LocalStorage(dir);
    const key = objectKey('atomic', `${randomUUID()}.pdf`);
    await storage.put(key, new Uint8Array([1]));
    const files = await readdir(path.join(dir, 'atomic'));
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('S3 requests are path-style, signed with the configured key and carry the SHA-256 twice', async () => {
    const storage = storageFromEnv({
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    });
    expect(storage).toBeInstanceOf(S3Storage);
    const key = objectKey('documents', `${randomUUID()}.pdf`);
    const body = new Uint8Array([37, 80, 68, 70]);
    await storage.put(key, body, { contentType: 'application/pdf' });
    const put = s3.requests.findLast((r) => r.method === 'PUT')!;
    expect(put.path).toBe(`/${s3.bucket}/${key}`);
    expect(put.headers['x-amz-checksum-sha256']).toBe(createHash('sha256').update(body).digest('base64'));
    expect(put.headers['x-amz-meta-sha256']).toBe(sha(body));
    expect(s3.objects.get(key)?.contentType).toBe('application/pdf');
  });

  it('S3 with a wrong access key fails loudly', async () => {
    const storage = new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true, accessKeyId: 'AKIAWRONG', secretAccessKey: 'x' });
    await expect(storage.put(objectKey('x', 'y.bin'), new Uint8Array([1]))).rejects.toThrow();
  });

  it('defaults to files under STORAGE_DIR, or .data/storage', () => {
    const local = storageFromEnv({ STORAGE_DIR: dir });
    expect(local).toBeInstanceOf(LocalStorage);
    expect((local as LocalStorage).root).toBe(dir);
    expect((storageFromEnv({}) as LocalStorage).root).toBe(path.resolve('.data/storage'));
  });
});
