import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { assertKey, type ObjectStorage, type StoredObject, sha256Hex } from './storage';

interface Sidecar {
  size: number;
  sha256: string;
  content_type: string;
}

/**
 * Objects as files under `root`, each with a `<file>.meta.json` sidecar holding its size, SHA-256 and
 * content type (so `head` never rereads the object). Writes go to a temporary file renamed into place:
 * a reader sees the whole object or none of it.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  private file(key: string) {
    const file = path.resolve(this.root, assertKey(key));
    // assertKey already forbids ".." segments; this keeps the guarantee if the rule ever loosens.
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Storage key escapes the storage directory: ${key}`);
    return file;
  }

  async put(key: string, body: Uint8Array, { contentType = 'application/octet-stream' } = {}): Promise<StoredObject> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const meta: Sidecar = { size: body.byteLength, sha256: sha256Hex(body), content_type: contentType };
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, body);
    await writeFile(`${tmp}.meta`, JSON.stringify(meta));
    await rename(`${tmp}.meta`, `${file}.meta.json`);
    await rename(tmp, file);
    return { key, size: meta.size, sha256: meta.sha256, contentType };
  }

  async head(key: string): Promise<StoredObject | null> {
    const file = this.file(key);
    let meta: Sidecar;
    try {
      meta = JSON.parse(await readFile(`${file}.meta.json`, 'utf8')) as Sidecar;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return { key, size: meta.size, sha256: meta.sha256, contentType: meta.content_type };
  }

  async get(key: string) {
    const meta = await this.head(key);
    if (!meta) return null;
    let handle: FileHandle;
    try {
      handle = await open(this.file(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return { ...meta, body: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array> };
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await rm(file, { force: true });
    await rm(`${file}.meta.json`, { force: true });
  }

  /** The keys of complete objects: a file with its sidecar (a temporary file of a put under way is not one). */
  async *list(prefix = ''): AsyncIterable<string> {
    const walk = async function* (dir: string, rel: string): AsyncGenerator<string> {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      const names = new Set(entries.map((e) => e.name));
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const key = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
        else if (entry.isFile() && !entry.name.endsWith('.meta.json') && !entry.name.endsWith('.tmp') && names.has(`${entry.name}.meta.json`)) yield key;
      }
    };
    for await (const key of walk(this.root, '')) if (key.startsWith(prefix)) yield key;
  }
}
