import { ApiError } from '@/lib/platform/errors';

/**
 * Query parameters that carry a secret. A URL is written to the address bar, the history, proxies' and servers' logs
 * and Referer headers: a password, an API key or a token never belongs there, and a request that puts one there is
 * refused without using it (login page, /api/auth, /v1). Matched on the name's words, case and separators aside:
 * `password`, `user_password`, `api-key`, `apiKey`, `access_token`, `client_secret`…
 */
const SECRET_WORDS = /(^|_)(password|passwd|passwort|pwd|passphrase|mot_de_passe|motdepasse|secret|token|api_?key|apikey|authorization|credentials?)($|_)/;

/** The first query parameter whose name says it holds a secret, or null. */
export function secretQueryParam(params: URLSearchParams | Record<string, unknown>): string | null {
  const names = params instanceof URLSearchParams ? [...params.keys()] : Object.keys(params);
  for (const name of names) {
    const words = name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_');
    if (SECRET_WORDS.test(words)) return name;
  }
  return null;
}

/**
 * 400 `credentials_in_query` naming the parameter, for a request that carries a secret in its URL: it is refused
 * without being used, and the message says to treat the secret as exposed.
 */
export function refuseCredentialsInQuery(url: string | URL) {
  const name = secretQueryParam(new URL(url).searchParams);
  if (name) {
    throw new ApiError(
      400,
      'credentials_in_query',
      `${name}: credentials never go in a URL, which browsers, proxies and servers record. This request was not used: send an API key in the Authorization header and a password in the body of a POST, and revoke or change the secret if it was a real one.`,
      name,
    );
  }
}
