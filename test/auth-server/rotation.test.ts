import { decodeProtectedHeader } from 'jose';
import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../auth-server/config.js';
import { rotateSigningKeys } from '../../auth-server/keys.js';
import { buildAuthorizationServerMetadata, buildOpenIdConfiguration } from '../../auth-server/metadata.js';
import { createMovableClock, type MovableClock, startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import { authorize, discover, type RegisteredClient, registerClient } from './helpers/oauth-client.js';

async function jwksKids(as: oauth.AuthorizationServer): Promise<string[]> {
  const jwks = (await (await fetch(as.jwks_uri ?? '')).json()) as { keys: { kid: string }[] };
  return jwks.keys.map((k) => k.kid);
}

describe('key rotation while tokens are outstanding', () => {
  let issuer: TestIssuer;
  let clock: MovableClock;
  let as: oauth.AuthorizationServer;
  let client: RegisteredClient;

  beforeAll(async () => {
    clock = createMovableClock();
    issuer = await startTestIssuer({ clock: clock.now });
    as = await discover(issuer.issuer);
    client = await registerClient(as, 'none');
  });
  afterAll(() => issuer.close());

  it('pre-publishes the new key, switches signing after the JWKS max-age, and retires the old key after its tokens expired', async () => {
    const config = resolveConfig({ port: 0, db: issuer.database.db });
    const before = await authorize(as, client, { credentials: issuer.customer, scope: 'openid' });
    const oldKid = decodeProtectedHeader(before.tokens.access_token).kid ?? '';
    const oldIdKid = decodeProtectedHeader(before.tokens.id_token ?? '').kid ?? '';

    const added = await rotateSigningKeys(issuer.store, config, clock.now);
    expect(added).toHaveLength(2);
    clock.advance(11); // past the ring's re-read interval
    const published = await jwksKids(as);
    expect(published).toEqual(expect.arrayContaining([oldKid, oldIdKid, ...added]));

    // Still inside the pre-publication window: tokens are signed with the old key.
    const during = await authorize(as, client, { credentials: issuer.customer, scope: 'openid' });
    expect(decodeProtectedHeader(during.tokens.access_token).kid).toBe(oldKid);

    clock.advance(config.jwksMaxAge);
    const after = await authorize(as, client, { credentials: issuer.customer, scope: 'openid' });
    const newKid = decodeProtectedHeader(after.tokens.access_token).kid;
    expect(newKid).not.toBe(oldKid);
    expect(added).toContain(newKid);
    expect(added).toContain(decodeProtectedHeader(after.tokens.id_token ?? '').kid);

    // A token signed by the old key before the switch is still accepted.
    const userinfo = await fetch(as.userinfo_endpoint ?? '', {
      headers: { authorization: `Bearer ${during.tokens.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await jwksKids(as)).toContain(oldKid);

    clock.advance(config.accessTokenTtl + 61);
    const retired = await jwksKids(as);
    expect(retired).not.toContain(oldKid);
    expect(retired).not.toContain(oldIdKid);
    expect(retired).toEqual(expect.arrayContaining(added));
  });

  it('serves the metadata the shared module builds, with every endpoint on the configured issuer', async () => {
    const oauthMetadata = await (
      await fetch(`${issuer.issuer}/.well-known/oauth-authorization-server`)
    ).json();
    const openid = await (await fetch(`${issuer.issuer}/.well-known/openid-configuration`)).json();
    // The site the catalog config names (merchant.url, no site_url there): the bundle built from
    // it publishes the same block, its agent_auth.skill the site's /auth.md.
    const input = { issuer: issuer.issuer, siteUrl: 'https://pomona-juice.example' };
    expect(oauthMetadata).toEqual(JSON.parse(JSON.stringify(buildAuthorizationServerMetadata(input))));
    expect(oauthMetadata.agent_auth.skill).toBe('https://pomona-juice.example/auth.md');
    expect(openid).toEqual(JSON.parse(JSON.stringify(buildOpenIdConfiguration(input))));
    const response = await fetch(`${issuer.issuer}/.well-known/jwks.json`, {
      headers: { host: 'evil.example' },
    });
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const viaOtherHost = await (
      await fetch(`${issuer.issuer}/.well-known/openid-configuration`, { headers: { host: 'evil.example' } })
    ).json();
    expect(viaOtherHost.issuer).toBe(issuer.issuer);
  });
});
