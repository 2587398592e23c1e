import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '@/lib/composition/modules';
import { MAX_PDF_BYTES, MAX_UPLOAD_BODY_BYTES } from '@/lib/domain/signature';

type Config = { experimental?: { proxyClientMaxBodySize?: number; serverActions?: { bodySizeLimit?: number } } };

/*
 * Next.js reads a body before any route does: its proxy (proxy.ts) passes on only the first 10 MB unless told more,
 * server actions stop at 1 MB. The endpoints' own limits must be the ones that hold (issue 33: 400 invalid_multipart
 * for a 15 MB PDF); e2e/upload-limits.spec.ts checks it on the built server.
 */
// Through a variable: the file is JavaScript, not part of the type-checked project.
const file = pathToFileURL(path.join(process.cwd(), 'next.config.mjs')).href;
const config = ((await import(/* @vite-ignore */ file)) as { default: Config }).default;

describe('next.config.mjs lets every documented body through', () => {
  // Every /v1 operation's limit, and the public signer upload's (app/api/sign/[token]/uploads).
  const largest = Math.max(MAX_UPLOAD_BODY_BYTES, ...operations.map((op) => op.maxBodyBytes ?? 0));

  it('the proxy passes more than the largest endpoint limit, so the endpoint answers a larger body (413)', () => {
    expect(largest).toBeGreaterThanOrEqual(MAX_PDF_BYTES);
    expect(config.experimental?.proxyClientMaxBodySize).toBeGreaterThan(largest);
  });

  it('server actions take the same 20 MB PDFs as the API (the back-office forms say « 20 Mo au plus »)', () => {
    expect(config.experimental?.serverActions?.bodySizeLimit).toBeGreaterThan(largest);
  });
});
