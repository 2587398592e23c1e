import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A server action bound inside a client component (`action.bind(null, id)` during render) hangs the server on a
 * no-JavaScript submission: React suspends on the new promise each render makes, forever (vercel/next.js#57867,
 * issue 11's defect 1). Actions are bound in server components and passed down (lib/platform/next/form-state.ts,
 * BoundFormAction); this test keeps it so.
 */

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

const serverActionFiles = [...sources('app'), ...sources('components'), ...sources('lib')].filter((file) =>
  /^\s*['"]use server['"]/.test(readFileSync(path.join(root, file), 'utf8')),
);

const clientFiles = [...sources('app'), ...sources('components')].filter((file) => /^\s*['"]use client['"]/.test(readFileSync(path.join(root, file), 'utf8')));

describe('server actions in client components', () => {
  it('finds the client components', () => {
    expect(clientFiles).toContain('app/(backoffice)/documents/[id]/document-actions.tsx');
  });

  it('never binds an action in a client component', () => {
    const offenders = clientFiles.filter((file) => /\.bind\(/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('server actions', () => {
  it('finds the action files', () => {
    expect(serverActionFiles).toContain('app/(backoffice)/documents/actions.ts');
  });

  // A 'use server' export written as a plain function would skip the wrapper (lib/platform/next/action.ts): the session and
  // org check, the schema, the answer to a missing target. Every action is a constant a wrapper built.
  it('are all built by the action wrapper, never written as bare functions', () => {
    const bare = serverActionFiles.flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(/^export\s+(?:default\s+)?(?:async\s+)?function\s+(\w+)/gm)].map((m) => `${file}: ${m[1]}`),
    );
    expect(bare).toEqual([]);
  });
});
