// The sandbox's worker thread (piscina): loads a task's bundle (lib/platform/sandbox/bundle.ts) and runs one export of
// it. Plain JavaScript, loaded by path at run time: neither Next.js's bundler nor tsx needs to see it.
const loaded = new Map();

/** @param {{ module: string, name: string, input: unknown }} task */
export default async function run({ module, name, input }) {
  let exports = loaded.get(module);
  if (!exports) {
    exports = await import(module);
    loaded.set(module, exports);
  }
  const fn = exports[name];
  if (typeof fn !== 'function') throw new Error(`sandbox: ${module} exports no function ${name}`);
  return fn(input);
}
