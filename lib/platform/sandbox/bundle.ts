import { createHash } from 'node:crypto';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A task's source file (TypeScript, TSX, imports through `@/`) compiled with esbuild into one ES module under
 * dist/sandbox/, named by its content's hash: a worker thread runs plain JavaScript, and neither Next.js's bundle nor
 * tsx is there. Packages stay external (node loads them from node_modules, as the server does). Once per file and
 * process; processes that compile the same source share the file (written under a temporary name, then renamed).
 */
const compiled = new Map<string, Promise<string>>();

export function bundledTask(file: string): Promise<string> {
  let url = compiled.get(file);
  if (!url) {
    url = compile(file);
    compiled.set(file, url);
    url.catch(() => compiled.delete(file));
  }
  return url;
}

async function compile(file: string): Promise<string> {
  const root = /*turbopackIgnore: true*/ process.cwd();
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, file)],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // tsconfig keeps JSX for Next.js to compile; the PDF templates need React's automatic runtime here.
    jsx: 'automatic',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const out = path.join(root, 'dist/sandbox', `${path.basename(file).replace(/\.[^.]+$/, '')}-${hash}.mjs`);
  try {
    await access(out);
  } catch {
    await mkdir(path.dirname(out), { recursive: true });
    const temporary = `${out}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, out);
  }
  return pathToFileURL(out).href;
}
