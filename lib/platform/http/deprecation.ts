import type { Deprecation } from '@/lib/platform/contract';

/**
 * The headers every response of a deprecated operation carries (docs/api-versioning.md): `Deprecation` as an RFC 9745
 * date (`@` and Unix seconds), `Sunset` as an RFC 8594 HTTP-date, and a `Link` with rel="deprecation" to the notice.
 */
export function deprecationHeaders(deprecated: Deprecation | undefined): Record<string, string> {
  if (!deprecated) return {};
  return {
    Deprecation: `@${Math.floor(instant(deprecated.since).getTime() / 1000)}`,
    ...(deprecated.sunset ? { Sunset: instant(deprecated.sunset).toUTCString() } : {}),
    ...(deprecated.link ? { Link: `<${deprecated.link}>; rel="deprecation"; type="text/html"` } : {}),
  };
}

/** A declaration's instant; a wrong one is the declaration's mistake, found by the first test that calls it. */
function instant(value: string): Date {
  const date = new Date(value);
  if (!/[zZ]|[+-]\d\d:\d\d$/.test(value) || Number.isNaN(date.getTime())) throw new Error(`Deprecation dates are RFC 3339 instants with an offset: ${value}`);
  return date;
}
