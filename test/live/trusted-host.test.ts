/**
 * The Netlify function reads the bundle's files from the origin a request names, so it
 * answers only for the site's own host, its Netlify hostnames and loopback, and refuses
 * any other Host with 421 before reading anything (the MCP conformance suite's DNS
 * rebinding scenario got a 500 from it, after it had tried to fetch from the foreign host).
 */
import { describe, expect, it } from 'vitest';
import { isTrustedHost, misdirected } from '../../live/shells/trusted-host.js';

const SITE = 'https://shop.example';

describe('isTrustedHost', () => {
  it.each([
    'https://shop.example/mcp',
    'http://localhost:8888/mcp',
    'http://127.0.0.1:41234/mcp',
    'http://[::1]:8888/mcp',
    'https://deploy-preview-12--shop.netlify.app/mcp',
  ])('answers for %s', (url) => {
    expect(isTrustedHost(new URL(url), SITE)).toBe(true);
  });

  it.each([
    'https://evil.example/mcp',
    'https://shop.example.evil.example/mcp',
    'https://shop.example:8443/mcp',
    'https://netlify.app.evil.example/mcp',
    'http://127.0.0.1.evil.example/mcp',
  ])('refuses %s', (url) => {
    expect(isTrustedHost(new URL(url), SITE)).toBe(false);
  });

  it('refuses every public host when the function was not told its site', () => {
    expect(isTrustedHost(new URL('https://shop.example/mcp'), undefined)).toBe(false);
    expect(isTrustedHost(new URL('http://localhost:8888/mcp'), undefined)).toBe(true);
  });
});

describe('misdirected', () => {
  it('is a 421 naming the site, not cached', async () => {
    const response = misdirected(SITE);
    expect(response.status).toBe(421);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain(SITE);
  });
});
