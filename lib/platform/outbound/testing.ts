import { afterAll, beforeAll } from 'vitest';
import type { ResolvedAddress } from './target';
import { setDefaultResolver } from './target';

/**
 * A test file's DNS: these names resolve to these addresses, every other name does not resolve (the tests have no
 * network). For calls that pass no resolver, e.g. through a route; restored when the file ends (its worker's other
 * files share the module).
 */
export function fakeDns(records: Record<string, string[]>) {
  beforeAll(() => {
    setDefaultResolver(async (host) => {
      const addresses = records[host.toLowerCase()];
      if (!addresses) throw new Error(`ENOTFOUND ${host}`);
      return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
    });
  });
  afterAll(() => setDefaultResolver(null));
}
