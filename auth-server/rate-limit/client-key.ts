/**
 * Which registered client a request claims to come from (the usage tracker records it for
 * the reaper). Rate-limit budgets do not trust this claim: they follow only a client that
 * authenticated (authenticated-client.ts). A client names itself the two ways RFC 6749 §2.3.1
 * allows: HTTP Basic (whose user part is form-urlencoded before base64) or a `client_id`
 * form field. The claim is not authenticated here (the route does that), but it must name
 * a registered client, so invented ids are never recorded. Known ids are remembered for a
 * minute to spare the store.
 */
import type { Request } from 'express';
import type { Store } from '../store/store.js';

const MAX_CLIENT_ID = 255;
const KNOWN_TTL_MS = 60_000;
const KNOWN_MAX = 10_000;

export function decodeFormComponent(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function fromBasic(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decodeFormComponent(decoded.slice(0, colon)) : undefined;
}

function fromForm(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('client_id' in body)) return undefined;
  return typeof body.client_id === 'string' ? body.client_id : undefined;
}

/** The client id a request claims (Basic first, then the form), if any and if plausible. */
export function readClaimedClientId(req: Request): string | undefined {
  const claimed = fromBasic(req.headers.authorization) ?? fromForm(req.body);
  if (claimed === undefined || claimed === '' || claimed.length > MAX_CLIENT_ID) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  return /[\u0000-\u001f\u007f]/.test(claimed) ? undefined : claimed;
}

export interface ClientResolver {
  /** The claimed client id when it names a registered client, else undefined. */
  resolve(req: Request): Promise<string | undefined>;
}

export function createClientResolver(store: Store, now: () => number = Date.now): ClientResolver {
  const known = new Map<string, number>();
  return {
    async resolve(req) {
      const claimed = readClaimedClientId(req);
      if (claimed === undefined) return undefined;
      const until = known.get(claimed);
      if (until !== undefined && until > now()) return claimed;
      if (!(await store.findClient(claimed))) return undefined;
      if (known.size >= KNOWN_MAX) known.clear();
      known.set(claimed, now() + KNOWN_TTL_MS);
      return claimed;
    },
  };
}
