import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget, type TargetOptions } from './target';

/**
 * Keep-alive agents, one per checked address (and protocol): a pooled socket of one was connected to that address
 * and nothing else, so reusing it is connecting to the address that was checked. Most recently used last; the
 * oldest is closed beyond MAX_AGENTS.
 */
const MAX_AGENTS = 256;
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, address: string): http.Agent {
  const key = `${protocol}//${address}`;
  let agent = agents.get(key);
  if (agent) agents.delete(key);
  else {
    // An idle socket is closed after 4 s, before a receiver's usual 5 s keep-alive timeout closes it under a request.
    const options = { keepAlive: true, timeout: 4000 };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest, old] = agents.entries().next().value as [string, http.Agent];
    agents.delete(oldest);
    old.destroy();
  }
  return agent;
}

export interface PinnedConnection {
  url: URL;
  address: string;
  /** For `http(s).request(url, {agent, lookup})`: the socket connects to `address`, whatever DNS says next. */
  agent: http.Agent;
  lookup: LookupFunction;
  client: typeof http | typeof https;
}

/**
 * The URL checked after DNS resolution (target.ts) and what connects to the checked address only: the request's
 * `lookup` answers that address, so no second resolution can rebind the name, while TLS still checks the certificate
 * against the URL's host name. Throws TargetRefused.
 */
export async function pinnedConnection(rawUrl: string, options: TargetOptions): Promise<PinnedConnection> {
  const { url, target } = await resolveTarget(rawUrl, options);
  const { address, family } = target;
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return { url, address, agent: agentFor(url.protocol, address), lookup, client: url.protocol === 'https:' ? https : http };
}
