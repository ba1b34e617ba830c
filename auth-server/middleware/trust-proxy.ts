/**
 * Which reverse proxies may speak for the client. By default none: Express's `trust proxy`
 * stays false and `req.ip` is the TCP peer, because an `X-Forwarded-For` header from anyone
 * else is just a string the client chose (and would let it pick its own rate-limit key).
 * Behind a load balancer the operator names it: `--trust-proxy` / `AUTH_TRUST_PROXY` takes a
 * comma-separated list of addresses, CIDR ranges or Express's named ranges (`loopback`,
 * `linklocal`, `uniquelocal`); Express then takes the client address from the rightmost
 * `X-Forwarded-For` entry that is not a trusted proxy. Hop counts and `true` are refused on
 * purpose: both trust whatever the first hop says. The issuer identifier never comes from
 * these headers either way (it is configured).
 */
import { isIP } from 'node:net';
import { z } from 'zod';

const NAMED_RANGES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);
const NONE: ReadonlySet<string> = new Set(['', 'none', 'false']);

function isTrustEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Splits the flag's value into entries; `none` (or empty) means no proxy is trusted. */
export function parseTrustProxy(value: string): string[] {
  const trimmed = value.trim().toLowerCase();
  if (NONE.has(trimmed)) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The config schema entry: a string in, the list of trusted proxies out (empty = none). */
export const trustProxySchema = z
  .string()
  .default('none')
  .transform(parseTrustProxy)
  .refine((entries) => entries.every(isTrustEntry), {
    message:
      'must be "none" or a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal',
  });

/** The value for Express's `trust proxy` setting. */
export function toExpressTrustProxy(entries: readonly string[]): false | string[] {
  return entries.length === 0 ? false : [...entries];
}
