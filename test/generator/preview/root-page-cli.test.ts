/**
 * Issue 24, the first minute of `npm run preview`: it prints the addresses worth opening,
 * `/` answers something useful in both deployment models (the landing page where the
 * bundle has one; otherwise a preview-only page naming what is served, with its Markdown
 * twin), and a port that is taken is one line naming `--port`, exit 2. Through the real CLI.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TempBundle, writeTempBundle } from '../../helpers/write-bundle.js';
import { makeFixtureBundle } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type Running, runToExit, startCli } from './preview-process.js';

const LANDING = '<!doctype html><title>Pomona agents</title><h1>landing page</h1>';

let modelB: TempBundle;
let modelA: TempBundle;

beforeAll(async () => {
  modelB = await writeTempBundle(makeFixtureBundle());
  modelA = await writeTempBundle([...makeFixtureBundle(), { path: 'index.html', body: LANDING }]);
});
afterAll(async () => {
  await modelB?.cleanup();
  await modelA?.cleanup();
});

async function withPreview(dir: string, use: (running: Running) => Promise<void>): Promise<void> {
  const running = await startCli(['--port', '0', '--quiet', '--dir', dir]);
  try {
    await use(running);
  } finally {
    running.child.kill('SIGKILL');
  }
}

describe('preview at / when the bundle has no landing page (model (b))', () => {
  it('then / is a page linking every document served, each of which answers 200, and no hidden file', async () => {
    await withPreview(modelB.dir, async ({ url }) => {
      const res = await rawRequest(url, '/');
      expect(res.status).toBe(200);
      expect(header(res, 'content-type')).toMatch(/^text\/html/);
      expect(res.body).toMatch(/on the real host, \/ belongs to the store/i);
      const links = [...res.body.matchAll(/href="([^"]+)"/g)].map((match) => match[1] ?? '');
      expect(links).toEqual(
        expect.arrayContaining(['/agent-catalog', '/agent-catalog/health', '/llms.txt', '/api/']),
      );
      expect(
        links.some((link) => link.includes('_headers') || link.includes('.env') || link.includes('.git')),
      ).toBe(false);
      for (const link of links) expect((await rawRequest(url, link)).status, link).toBe(200);
    });
  });

  it('then a client preferring Markdown gets the twin as text/markdown, varying on Accept', async () => {
    await withPreview(modelB.dir, async ({ url }) => {
      const res = await rawRequest(url, '/', { headers: { accept: 'text/markdown, text/html;q=0.5' } });
      expect(res.status).toBe(200);
      expect(header(res, 'content-type')).toMatch(/^text\/markdown/);
      expect(header(res, 'vary')).toMatch(/accept/i);
      expect(res.body).toContain('(</agent-catalog>)');
      expect(res.body).toMatch(/belongs to the store/);
    });
  });

  it('then a folder with a page per product shows its first pages and a count, each shown page served', async () => {
    const pages = Array.from({ length: 60 }, (_, i) => ({
      path: `products/p${i + 10}.md`,
      body: `# ${i}\n`,
    }));
    const large = await writeTempBundle([...makeFixtureBundle(), ...pages]);
    try {
      await withPreview(large.dir, async ({ url }) => {
        const res = await rawRequest(url, '/');
        const links = [...res.body.matchAll(/href="(\/products\/[^"]+)"/g)].map((match) => match[1] ?? '');
        expect(links).toHaveLength(10);
        expect(res.body).toContain('… and 50 more under <code>/products/</code>');
        for (const link of links) expect((await rawRequest(url, link)).status, link).toBe(200);
      });
    } finally {
      await large.cleanup();
    }
  });

  it('then every other unknown path is still the hosts’ plain 404', async () => {
    await withPreview(modelB.dir, async ({ url }) => {
      expect((await rawRequest(url, '/index.html')).status).toBe(404);
      expect((await rawRequest(url, '/no-such-page')).status).toBe(404);
    });
  });
});

describe('preview at / when model (b) proxies the rest to the storefront', () => {
  it('then / is still the preview page, and any other unknown path is the proxy answer it always was', async () => {
    const files = makeFixtureBundle().map((file) =>
      file.path === '_redirects'
        ? { ...file, body: `${file.body}/*  https://store.pomona.example/:splat  200\n` }
        : file,
    );
    const proxied = await writeTempBundle(files);
    try {
      await withPreview(proxied.dir, async ({ url }) => {
        const root = await rawRequest(url, '/');
        expect(root.status).toBe(200);
        expect(root.body).toMatch(/belongs to the store/);
        expect((await rawRequest(url, '/collections/all')).status).toBe(502);
      });
    } finally {
      await proxied.cleanup();
    }
  });
});

describe('preview at / when the bundle has a landing page (model (a))', () => {
  it('then / serves the landing page itself', async () => {
    await withPreview(modelA.dir, async ({ url }) => {
      const res = await rawRequest(url, '/');
      expect(res.status).toBe(200);
      expect(res.body).toBe(LANDING);
    });
  });
});

describe('preview start-up', () => {
  it('when listening then the line scripts wait for comes first, then /, the catalog and the docs page to open', async () => {
    await withPreview(modelB.dir, async ({ url, stdout }) => {
      const lines = stdout().trimEnd().split('\n');
      expect(lines[0]).toBe(`listening on ${url}`);
      const urls = lines.slice(1).map((line) => line.trim().split(/\s+/)[0]);
      expect(urls).toEqual([`${url}/`, `${url}/agent-catalog`, `${url}/api/`]);
    });
  });

  it('when the catalog is under a base path then the catalog address printed is that path', async () => {
    const prefixed = await writeTempBundle(makeFixtureBundle('/shop'));
    try {
      await withPreview(prefixed.dir, async ({ url, stdout }) => {
        expect(stdout()).toContain(`${url}/shop/agent-catalog `);
      });
    } finally {
      await prefixed.cleanup();
    }
  });

  it('when the port is taken then it exits 2 with one line naming --port and no errno', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const result = await runToExit(['--port', String(port), '--dir', modelB.dir]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`--port ${port}`);
      expect(lines[0]).toContain('already in use');
      expect(lines[0]).not.toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
