/**
 * The merchant on the issuer's pages: read from catalog.config.json with only the keys the
 * issuer needs, refused with the file and field named when wrong, and shown in every page's
 * title, on error pages with a way on and a contact, and with links back to the store.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadMerchantIdentity,
  merchantFromCatalogConfig,
  NEUTRAL_MERCHANT,
} from '../../auth-server/merchant.js';
import { FormAgent } from './helpers/form-agent.js';
import { startTestIssuer, TEST_CATALOG_CONFIG, type TestIssuer } from './helpers/issuer.js';

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

describe('the merchant identity', () => {
  it('takes the name, store link, contact and the optional issuer keys from the catalog config', async () => {
    const merchant = await loadMerchantIdentity(TEST_CATALOG_CONFIG, true);
    expect(merchant).toMatchObject({
      name: 'Pomona Juice Co.',
      storeUrl: 'https://pomona-juice.example',
      accentColor: '#9a3412',
      supportContact: 'help@pomona-juice.example',
      privacyUrl: 'https://pomona-juice.example/policies/privacy-policy',
    });
  });

  it('names the file and the field when a key is wrong, and refuses a colour that could escape the stylesheet', () => {
    const base = { merchant: { name: 'Shop', url: 'https://shop.example', contact: 'a@shop.example' } };
    expect(() =>
      merchantFromCatalogConfig({ ...base, issuer: { accent_color: 'red;}body{' } }, 'c.json'),
    ).toThrow(/c\.json.*issuer\.accent_color/);
    expect(() => merchantFromCatalogConfig({ merchant: { name: 'Shop' } }, 'c.json')).toThrow(
      /merchant\.url/,
    );
  });

  it('falls back to a neutral identity only when the default file is absent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-auth-merchant-'));
    try {
      expect(await loadMerchantIdentity(join(dir, 'none.json'), false)).toEqual(NEUTRAL_MERCHANT);
      await expect(loadMerchantIdentity(join(dir, 'none.json'), true)).rejects.toThrow(/none\.json/);
      await writeFile(join(dir, 'bad.json'), '{ not json');
      await expect(loadMerchantIdentity(join(dir, 'bad.json'), false)).rejects.toThrow(/bad\.json/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pages that name the merchant', () => {
  let issuer: TestIssuer;
  let agent: FormAgent;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    agent = new FormAgent(new URL(issuer.issuer).origin);
  });
  afterAll(() => issuer.close());

  it('every page title names the merchant; sign-in says "Sign in to" it', async () => {
    expect(titleOf((await agent.get('/account')).html)).toBe('Sign in to Pomona Juice Co.');
    expect(titleOf((await agent.get('/password/forgot')).html)).toContain('Pomona Juice Co.');
    expect(titleOf((await agent.get('/interaction/unknown')).html)).toContain('Pomona Juice Co.');
  });

  it('an error page says what happened, what to do, and whom to contact, and links to the store', async () => {
    const page = await agent.get('/interaction/unknown');
    expect(page.status).toBe(400);
    const text = page.html.replace(/<style>[\s\S]*<\/style>/, '').replace(/<[^>]+>/g, ' ');
    expect(text).toMatch(/expired|started elsewhere/);
    expect(text).toMatch(/try again/);
    expect(page.html).toContain('href="mailto:help@pomona-juice.example"');
    expect(page.html).toContain('href="https://pomona-juice.example"');
  });

  it('sign-up is off unless --allow-signup', async () => {
    expect((await agent.get('/signup')).status).toBe(404);
    expect((await agent.get('/account')).html).not.toContain('/signup');
  });
});
