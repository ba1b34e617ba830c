/**
 * Matching a requested redirect URI against the registered ones. The match is exact
 * string comparison (no normalisation, no prefix or wildcard), with the one exception
 * RFC 8252 §7.3 demands for native apps: for http on a loopback IP the server "MUST allow
 * any port to be specified at the time of the request", so only the port may differ.
 */

const LOOPBACK_PREFIX = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(?=[/?]|$)/;

/** A TCP port a redirect may name: 1–65535 (port 0 and 99999 are no port at all). */
export function isValidPort(port: string): boolean {
  const value = Number(port);
  return Number.isInteger(value) && value >= 1 && value <= 65535;
}

function withoutLoopbackPort(uri: string): string | undefined {
  const match = LOOPBACK_PREFIX.exec(uri);
  if (!match || (match[2] !== undefined && !isValidPort(match[2]))) return undefined;
  return `http://${match[1]}${uri.slice(match[0].length)}`;
}

/** The requested URI when it matches a registered one, otherwise undefined. */
export function matchRedirectUri(requested: string, registered: readonly string[]): string | undefined {
  if (registered.includes(requested)) return requested;
  const portless = withoutLoopbackPort(requested);
  if (portless === undefined || requested.includes('#')) return undefined;
  return registered.some((r) => withoutLoopbackPort(r) === portless) ? requested : undefined;
}
