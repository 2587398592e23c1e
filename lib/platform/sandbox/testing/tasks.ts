// Tasks for lib/platform/sandbox's own tests: what a hostile file makes a parser do, without the file.

/** Echoes its bytes back reversed: input and answer cross the thread boundary intact. */
export function reverse(bytes: Uint8Array): Uint8Array {
  return Uint8Array.from(bytes).reverse();
}

/** Spins for `ms` (a parser lost in a file): the thread that runs it serves nothing else meanwhile. */
export function spin(ms: number): number {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return n;
}

/** Keeps allocating (a decompression bomb, a layout that never ends). */
export function hog(): number {
  const kept: number[][] = [];
  for (;;) kept.push(new Array(1_000_000).fill(kept.length));
}

export function fail(message: string): never {
  throw new Error(message);
}
