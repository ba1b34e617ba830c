/**
 * Which client a request's rate-limit budget may belong to. A client_id is public (it sits
 * in every authorization URL), so naming one proves nothing: keyed on the claim alone,
 * `Authorization: Basic base64(<any registered id>:junk)` bought a fresh budget on every
 * endpoint (issue 12, finding 5). A request counts against a client only when it carries
 * that client's secret the way the client registered it (RFC 6749 §2.3.1: HTTP Basic, or
 * `client_id` and `client_secret` in the form), checked here as the token endpoint would
 * check it; everything else, public clients included, counts against its address. Client
 * rows are remembered for a minute so a busy client costs one store read a minute.
 */
import type { Request } from 'express';
import { readParam } from '../params.js';
import { hashSecret, secretsEqual } from '../secrets.js';
import type { Store } from '../store/store.js';
import { decodeFormComponent } from './client-key.js';

const MAX_CLIENT_ID = 255;
const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 10_000;

interface Presented {
  clientId: string;
  secret: string;
  method: 'client_secret_basic' | 'client_secret_post';
}

function fromBasic(header: string | undefined): Presented | undefined {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const clientId = decodeFormComponent(decoded.slice(0, colon));
  const secret = decodeFormComponent(decoded.slice(colon + 1));
  return clientId && secret ? { clientId, secret, method: 'client_secret_basic' } : undefined;
}

function fromForm(body: unknown): Presented | undefined {
  try {
    const clientId = readParam(body, 'client_id');
    const secret = readParam(body, 'client_secret');
    if (!clientId.ok || !secret.ok || !clientId.value || !secret.value) return undefined;
    return { clientId: clientId.value, secret: secret.value, method: 'client_secret_post' };
  } catch {
    return undefined; // a malformed field: the route refuses it; here it simply proves nothing
  }
}

function presented(req: Request): Presented | undefined {
  const found = fromBasic(req.headers.authorization) ?? fromForm(req.body);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character names no client
  if (!found || found.clientId.length > MAX_CLIENT_ID || /[\u0000-\u001f\u007f]/.test(found.clientId))
    return undefined;
  return found;
}

export interface AuthenticatedClientResolver {
  /** The client id when the request authenticates as that client, else undefined. */
  resolve(req: Request): Promise<string | undefined>;
}

interface CachedClient {
  secretHash: string | null;
  method: string;
  until: number;
}

export function createAuthenticatedClientResolver(
  store: Store,
  now: () => number = Date.now,
): AuthenticatedClientResolver {
  const cache = new Map<string, CachedClient>();
  async function lookup(clientId: string): Promise<CachedClient | undefined> {
    const cached = cache.get(clientId);
    if (cached && cached.until > now()) return cached;
    const row = await store.findClient(clientId);
    if (!row) return undefined;
    if (cache.size >= CACHE_MAX) cache.clear();
    const entry = {
      secretHash: row.secretHash,
      method: row.tokenEndpointAuthMethod,
      until: now() + CACHE_TTL_MS,
    };
    cache.set(clientId, entry);
    return entry;
  }
  return {
    async resolve(req) {
      const claim = presented(req);
      if (!claim) return undefined;
      const client = await lookup(claim.clientId);
      if (!client?.secretHash || client.method !== claim.method) return undefined;
      return secretsEqual(hashSecret(claim.secret), client.secretHash) ? claim.clientId : undefined;
    },
  };
}
