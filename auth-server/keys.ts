/**
 * Signing keys and every use of jose. ES256 signs access tokens (RFC 9068, `typ: at+jwt`),
 * RS256 signs ID tokens (the algorithm OpenID Connect Discovery requires to be listed).
 * Keys live in the store so all instances share them; the ring reloads them from there
 * every few seconds. Rotation pre-publishes: a new key appears in the JWKS `jwksMaxAge`
 * seconds before it signs, and the old one stays published until every token it signed
 * has expired. First-start generation is a race-safe insert on (alg, generation). Verified
 * access tokens are remembered until they expire (verified-tokens.ts). Private keys are
 * sealed at rest under the operator's key-encryption key when one is given (key-sealing.ts,
 * the one other module that imports jose). The contract the routes see is in key-ring.ts,
 * which imports nothing.
 */
import {
  type CryptoKey,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { IssuerConfig } from './config.js';
import { type Clock, type KeyRing, unixSeconds, type VerifiedAccessToken } from './key-ring.js';
import {
  isSealed,
  type KeyEncryptionKey,
  KeyProtectionError,
  openPrivateJwk,
  sealPrivateJwk,
} from './key-sealing.js';
import type { KeyAlg, KeyRow } from './store/rows.js';
import type { Store } from './store/store.js';
import { createVerifiedTokenCache } from './verified-tokens.js';

const ALGS: readonly KeyAlg[] = ['ES256', 'RS256'];
// The ring re-reads the store this often, far below jwksMaxAge, so every instance starts
// signing with a rotated key well after it was published.
const RELOAD_SECONDS = 10;
const CLOCK_SKEW = 60;

async function generateKeyRow(
  alg: KeyAlg,
  generation: number,
  now: number,
  activatesAt: number,
  kek: KeyEncryptionKey | undefined,
): Promise<KeyRow> {
  const options = alg === 'RS256' ? { extractable: true, modulusLength: 2048 } : { extractable: true };
  const { privateKey, publicKey } = await generateKeyPair(alg, options);
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg });
  return {
    kid,
    alg,
    generation,
    // Sealed before it ever reaches the store when a key-encryption key is configured.
    privateJwk: kek ? await sealPrivateJwk(privateJwk, kek) : privateJwk,
    publicJwk: JSON.stringify({ ...publicJwk, kid, alg, use: 'sig' }),
    createdAt: now,
    activatesAt,
    retiresAt: null,
  };
}

/** Creates the first key of each algorithm unless one exists; safe when processes race. */
export async function ensureSigningKeys(
  store: Store,
  clock: Clock = Date.now,
  kek?: KeyEncryptionKey,
): Promise<void> {
  const existing = await store.listKeys();
  for (const alg of ALGS) {
    if (existing.some((k) => k.alg === alg)) continue;
    const now = unixSeconds(clock);
    await store.insertKey(await generateKeyRow(alg, 1, now, now, kek));
  }
}

/**
 * `keys rotate`: a new key per algorithm, published now and signing after `jwksMaxAge`;
 * older keys retire once the longest-lived token they could still sign has expired.
 */
export async function rotateSigningKeys(
  store: Store,
  config: IssuerConfig,
  clock: Clock = Date.now,
  kek?: KeyEncryptionKey,
): Promise<string[]> {
  const existing = await store.listKeys();
  // A clear key must not join sealed ones: without the key-encryption key, refuse.
  const sealed = kek ? undefined : existing.find((k) => isSealed(k.privateJwk));
  if (sealed) await openPrivateJwk(sealed.privateJwk, undefined, sealed.kid);
  const added: string[] = [];
  const longestToken = Math.max(config.accessTokenTtl, config.idTokenTtl);
  for (const alg of ALGS) {
    const generation = Math.max(0, ...existing.filter((k) => k.alg === alg).map((k) => k.generation)) + 1;
    const now = unixSeconds(clock);
    const activatesAt = now + config.jwksMaxAge;
    const row = await generateKeyRow(alg, generation, now, activatesAt, kek);
    if (!(await store.insertKey(row))) continue;
    await store.retireKeysBefore(alg, generation, activatesAt + longestToken + CLOCK_SKEW);
    added.push(row.kid);
  }
  return added;
}

function readString(payload: JWTPayload, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string') throw new TypeError(`access token lacks ${name}`);
  return value;
}

/** RFC 7519 §4.1.3: one audience "MAY be a single case-sensitive string"; several are an array. */
function audienceClaim(audience: readonly string[]): string | string[] {
  const [only, ...others] = audience;
  if (only === undefined) throw new TypeError('an access token needs an audience');
  return others.length === 0 ? only : [...audience];
}

export function createKeyRing(
  store: Store,
  config: IssuerConfig,
  clock: Clock = Date.now,
  kek?: KeyEncryptionKey,
): KeyRing {
  let rows: KeyRow[] = [];
  let loadedAt = Number.NEGATIVE_INFINITY;
  const imported = new Map<string, CryptoKey>();
  const verified = createVerifiedTokenCache(clock);

  async function current(): Promise<KeyRow[]> {
    const now = unixSeconds(clock);
    if (now - loadedAt >= RELOAD_SECONDS) {
      rows = await store.listKeys();
      loadedAt = now;
    }
    return rows.filter((k) => k.retiresAt === null || k.retiresAt > now);
  }

  async function importKey(row: KeyRow, which: 'private' | 'public'): Promise<CryptoKey> {
    const cacheKey = `${which}:${row.kid}`;
    const cached = imported.get(cacheKey);
    if (cached) return cached;
    if (which === 'private' && kek && !isSealed(row.privateJwk)) {
      // Start-up sealed every clear key; a clear one now was written behind the issuer's back.
      throw new KeyProtectionError('KEYS_DAMAGED', `signing key ${row.kid} is stored in clear text`);
    }
    const text = which === 'private' ? await openPrivateJwk(row.privateJwk, kek, row.kid) : row.publicJwk;
    const jwk: unknown = JSON.parse(text);
    const key = await importJWK(jwk as JWK, row.alg);
    if (!('type' in key)) throw new TypeError('expected an asymmetric key');
    imported.set(cacheKey, key);
    return key;
  }

  async function signingKey(alg: KeyAlg): Promise<{ row: KeyRow; key: CryptoKey }> {
    const now = unixSeconds(clock);
    const candidates = (await current()).filter((k) => k.alg === alg && k.activatesAt <= now);
    const row = candidates.sort((a, b) => b.generation - a.generation)[0];
    if (!row) throw new Error(`no active ${alg} signing key (run migrate/serve first)`);
    return { row, key: await importKey(row, 'private') };
  }

  async function verificationKey(kid: string, alg: KeyAlg): Promise<KeyRow | undefined> {
    const found = (await current()).find((k) => k.kid === kid && k.alg === alg);
    if (found) return found;
    loadedAt = Number.NEGATIVE_INFINITY; // a key rotated in by another instance: re-read once
    return (await current()).find((k) => k.kid === kid && k.alg === alg);
  }

  async function keyForToken(token: string, alg: KeyAlg): Promise<CryptoKey> {
    const header = decodeProtectedHeader(token);
    const row = typeof header.kid === 'string' ? await verificationKey(header.kid, alg) : undefined;
    if (!row) throw new TypeError('unknown signing key');
    return importKey(row, 'public');
  }

  async function verifyAccessTokenSignature(token: string): Promise<VerifiedAccessToken> {
    const key = await keyForToken(token, 'ES256');
    // RFC 9068 §4: the resource server "MUST verify that the typ header value is at+jwt".
    // Userinfo is the issuer's own: it accepts a token for any resource the issuer serves
    // (the MCP tool reads the customer's profile through it with the token it was sent).
    const { payload } = await jwtVerify(token, key, {
      issuer: config.issuer,
      audience: [...config.resources],
      typ: 'at+jwt',
      algorithms: ['ES256'],
      currentDate: new Date(clock()),
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    });
    return {
      sub: readString(payload, 'sub'),
      clientId: readString(payload, 'client_id'),
      scope: readString(payload, 'scope'),
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : 0,
      jti: readString(payload, 'jti'),
      grantId: readString(payload, 'gid'),
      audience: Array.isArray(payload.aud) ? payload.aud : payload.aud === undefined ? [] : [payload.aud],
      exp: typeof payload.exp === 'number' ? payload.exp : 0,
    };
  }

  return {
    async signAccessToken(claims) {
      const { row, key } = await signingKey('ES256');
      const now = unixSeconds(clock);
      const token = await new SignJWT({
        client_id: claims.clientId,
        scope: claims.scope,
        auth_time: claims.authTime,
        gid: claims.grantId,
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: row.kid })
        .setIssuer(config.issuer)
        .setSubject(claims.sub)
        .setAudience(audienceClaim(claims.audience))
        .setIssuedAt(now)
        .setExpirationTime(now + config.accessTokenTtl)
        .setJti(claims.jti)
        .sign(key);
      return { token, expiresIn: config.accessTokenTtl };
    },

    async signIdToken(claims) {
      const { row, key } = await signingKey('RS256');
      const now = unixSeconds(clock);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: row.kid })
        .setIssuer(config.issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + config.idTokenTtl)
        .sign(key);
    },

    async verifyAccessToken(token) {
      const cached = verified.get(token);
      if (cached) return cached;
      const claims = await verifyAccessTokenSignature(token);
      verified.set(token, claims);
      return claims;
    },

    async verifyIdTokenHint(token, toleranceSeconds) {
      const key = await keyForToken(token, 'RS256');
      const { payload } = await jwtVerify(token, key, {
        issuer: config.issuer,
        algorithms: ['RS256'],
        currentDate: new Date(clock()),
        clockTolerance: toleranceSeconds,
      });
      const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
      if (typeof aud !== 'string') throw new TypeError('id_token_hint has no audience');
      return { clientId: aud, sub: readString(payload, 'sub') };
    },

    async publicJwks() {
      const published = await current();
      return { keys: published.map((k) => JSON.parse(k.publicJwk) as JWK) };
    },

    reload() {
      loadedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
