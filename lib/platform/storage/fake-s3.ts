import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeObject {
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
  lastModified: Date;
}

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, FakeObject>;
  /** Every request seen, for assertions: method, path, headers. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

const xmlError = (res: ServerResponse, status: number, code: string, message: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

/**
 * A tiny S3 for tests: path-style PutObject, GetObject, HeadObject, DeleteObject and ListObjectsV2 (pages of
 * `max-keys`, default 1000) on one bucket, in memory.
 * It checks that requests are SigV4-signed with the expected access key (not the signature itself) and
 * verifies `x-amz-checksum-sha256` like S3 does. Listens on 127.0.0.1, a free port.
 */
export async function startFakeS3({ bucket = 'paraphe-test', accessKeyId = 'AKIAFAKEPARAPHE', secretAccessKey = 'fake-secret' } = {}): Promise<FakeS3> {
  const objects = new Map<string, FakeObject>();
  const requests: FakeS3['requests'] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) return xmlError(res, 403, 'InvalidAccessKeyId', 'Unknown access key');
    const [, requestBucket, ...rest] = url.pathname.split('/');
    if (requestBucket !== bucket) return xmlError(res, 404, 'NoSuchBucket', 'No such bucket');
    const key = decodeURIComponent(rest.join('/'));
    if (!key && req.method === 'GET' && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const max = Number(url.searchParams.get('max-keys') ?? 1000);
      const after = url.searchParams.get('continuation-token') ?? '';
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = keys.slice(0, max);
      const truncated = keys.length > page.length;
      const esc = (v: string) => v.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${esc(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
          page.map((k) => `<Contents><Key>${esc(k)}</Key><Size>${objects.get(k)!.body.length}</Size></Contents>`).join('') +
          (truncated ? `<NextContinuationToken>${esc(page.at(-1)!)}</NextContinuationToken>` : '') +
          '</ListBucketResult>',
      );
    }
    if (!key) return xmlError(res, 400, 'InvalidRequest', 'Object operations only');

    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const expected = req.headers['x-amz-checksum-sha256'];
      if (typeof expected === 'string' && createHash('sha256').update(body).digest('base64') !== expected) {
        return xmlError(res, 400, 'BadDigest', 'The SHA256 you specified did not match the calculated checksum.');
      }
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (name.startsWith('x-amz-meta-') && typeof value === 'string') metadata[name.slice('x-amz-meta-'.length)] = value;
      }
      objects.set(key, { body, contentType: req.headers['content-type'] ?? 'application/octet-stream', metadata, lastModified: new Date() });
      res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const object = objects.get(key);
      if (!object) {
        if (req.method === 'HEAD') {
          res.writeHead(404);
          return res.end();
        }
        return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      res.writeHead(200, {
        'content-type': object.contentType,
        'content-length': String(object.body.length),
        etag: `"${createHash('md5').update(object.body).digest('hex')}"`,
        'last-modified': object.lastModified.toUTCString(),
        ...Object.fromEntries(Object.entries(object.metadata).map(([k, v]) => [`x-amz-meta-${k}`, v])),
      });
      return res.end(req.method === 'GET' ? object.body : undefined);
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    return xmlError(res, 405, 'MethodNotAllowed', 'Method not allowed');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => xmlError(res, 500, 'InternalError', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
