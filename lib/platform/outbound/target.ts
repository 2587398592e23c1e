import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { addressRange, isPublicAddress } from './address';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address (the system resolver). Tests inject their own. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

let defaultResolver: Resolver = systemResolver;

/** The resolver of calls that pass none: the system's, or a test's (outbound/testing.ts fakeDns). */
export function setDefaultResolver(resolver: Resolver | null) {
  defaultResolver = resolver ?? systemResolver;
}

export interface TargetOptions {
  /**
   * The caller's explicit lift (WEBHOOKS_ALLOW_PRIVATE, EINVOICING_ALLOW_PRIVATE): http and non-public addresses
   * pass. Required, so that no caller inherits another's setting.
   */
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** A refused target: `reason` is English, for the API (422) and the logs. */
export class TargetRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TargetRefused';
  }
}

/** The URL's own checks, before any DNS: absolute, https (http too under the lift), no credentials. */
export function checkUrlShape(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('must be an absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new TargetRefused('must be an https URL');
  if (url.username || url.password) throw new TargetRefused('must not contain credentials');
  return url;
}

/**
 * The address to connect to for this URL, checked: every address the name resolves to must be public (one private
 * answer is enough to refuse: a round-robin would reach it sometimes). The caller connects to the returned address
 * itself (connection.ts), so a second, different DNS answer (rebinding) is never used. A DNS failure refuses (fail
 * closed).
 */
export async function resolveTarget(raw: string, options: TargetOptions): Promise<{ url: URL; target: ResolvedAddress }> {
  const { allowPrivate } = options;
  const url = checkUrlShape(raw, allowPrivate);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? defaultResolver)(host);
    } catch {
      throw new TargetRefused('host name does not resolve');
    }
    if (addresses.length === 0) throw new TargetRefused('host name does not resolve');
  }
  if (!allowPrivate) {
    for (const { address } of addresses) {
      if (!isPublicAddress(address)) throw new TargetRefused(`must not resolve to a non-public address (${address}, ${ipaddr.isValid(address) ? addressRange(address) : 'invalid'})`);
    }
  }
  return { url, target: addresses[0]! };
}
