/**
 * The peer the issuer is compared with: panva's oidc-provider, configured like ours as
 * far as it allows. Same paths (/oauth/authorize, /oauth/token, /oauth/userinfo,
 * /oauth/clients/register, /oauth/revoke, /.well-known/jwks.json), open dynamic
 * registration, PKCE with S256 required, refresh tokens rotated on every use, ID tokens
 * RS256 with an ES256 key beside it, the same scopes and claims, and storage on the same
 * database (peer-adapter.ts). Sign-in is its built-in dev interaction (any login and
 * password), which only the set-up touches. Access tokens stay opaque: oidc-provider's
 * userinfo accepts only its own opaque tokens. Run as a process:
 * `node lib/scripts/bench/peer-oidc-provider.js --db <file|postgres://…>`; prints
 * `listening on <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { createPeerAdapter } from './peer-adapter.js';

async function createJwks(): Promise<{ keys: Record<string, unknown>[] }> {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  return {
    keys: [
      { ...(await exportJWK(rsa.privateKey)), kid: 'peer-rs256', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ec.privateKey)), kid: 'peer-es256', alg: 'ES256', use: 'sig' },
    ],
  };
}

function configure(adapter: ReturnType<typeof createPeerAdapter>, jwks: { keys: Record<string, unknown>[] }) {
  return {
    adapter: adapter.factory,
    jwks,
    cookies: { keys: ['bench-peer-cookie-key-0123456789abcdef'] },
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      userinfo: '/oauth/userinfo',
      registration: '/oauth/clients/register',
      revocation: '/oauth/revoke',
      jwks: '/.well-known/jwks.json',
    },
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
    features: {
      registration: { enabled: true },
      revocation: { enabled: true },
      devInteractions: { enabled: true },
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    ttl: { AccessToken: 600, IdToken: 600, AuthorizationCode: 60, RefreshToken: 14 * 24 * 3600 },
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        claims: async () => ({ sub, name: 'Bench Customer', email: sub, email_verified: true }),
      };
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' } } });
  if (!values.db) throw new TypeError('--db <file|postgres://…> is required');
  const adapter = createPeerAdapter(values.db);
  const jwks = await createJwks();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const provider = new Provider(`http://127.0.0.1:${port}`, configure(adapter, jwks));
  server.on('request', provider.callback());
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  const stop = (): void => {
    server.close(() => {
      adapter.close().finally(() => process.exit(0));
    });
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
