/**
 * The preview serves only files inside the bundle directory. Every attack is sent as a
 * raw request target, so neither the client nor a proxy normalises it first; a file
 * beside the bundle holds a marker that must never appear in an answer.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureBundle } from './fixture-bundle.js';
import { header, rawRequest } from './http-client.js';
import { type ServedBundle, serveTempBundle } from './served-bundle.js';

const MARKER = 'OUTSIDE-THE-BUNDLE';

describe('preview never serves a file outside the bundle', () => {
  let served: ServedBundle;

  beforeAll(async () => {
    // Preview resolves every request afresh, so links made after it starts are served.
    served = await serveTempBundle(makeFixtureBundle());
    const outside = dirname(served.dir);
    await writeFile(join(outside, 'secret.txt'), MARKER);
    await mkdir(join(outside, 'secret-dir'));
    await writeFile(join(outside, 'secret-dir', 'index.html'), MARKER);
    await symlink(join(outside, 'secret.txt'), join(served.dir, 'leak.txt'));
    await symlink(join(outside, 'secret-dir'), join(served.dir, 'leak-dir'));
    await symlink(join(served.dir, 'llms.txt'), join(served.dir, 'alias.txt'));
  });
  afterAll(async () => {
    await served?.close();
  });

  it.each([
    ['dot segments', '/../secret.txt'],
    ['dot segments after a folder', '/kb/../../secret.txt'],
    ['encoded dot segments', '/%2e%2e/secret.txt'],
    ['mixed-case encoded dots', '/%2E%2e/secret.txt'],
    ['an encoded slash', '/kb%2f..%2f..%2fsecret.txt'],
    ['an encoded dot-dot-slash', '/%2e%2e%2fsecret.txt'],
    ['a backslash', '/..\\secret.txt'],
    ['an encoded backslash', '/..%5csecret.txt'],
    ['a NUL byte', '/llms.txt%00.json'],
    ['a NUL byte before dots', '/%00/../secret.txt'],
    ['double-encoded dots', '/%252e%252e/secret.txt'],
    ['a symlink to a file outside', '/leak.txt'],
    ['a symlink to a folder outside', '/leak-dir/'],
    ['a symlink folder without slash', '/leak-dir'],
    ['an absolute path in a double slash', '//etc/passwd'],
  ])('when the target has %s (%s) then the answer is 400 or 404 without the file', async (_name, target) => {
    const res = await rawRequest(served.url, target);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain(MARKER);
  });

  it('when the percent-encoding is malformed then the answer is 400, not 5xx', async () => {
    for (const target of ['/%zz', '/agent-catalog%', '/%E0%A4%A']) {
      const res = await rawRequest(served.url, target);
      expect(res.status, target).toBe(400);
    }
  });

  it('when a malformed target is under the catalog path then the 400 is JSON', async () => {
    const res = await rawRequest(served.url, '/agent-catalog/%zz');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toHaveProperty('error');
  });

  it('when a malformed target is under the catalog path then a browser on another origin may read the 400', async () => {
    const res = await rawRequest(served.url, '/agent-catalog/%zz');
    expect(res.status).toBe(400);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
  });

  it('when a symlink points inside the bundle then its file is served', async () => {
    const res = await rawRequest(served.url, '/alias.txt');
    expect(res.status).toBe(200);
    expect(res.body).toBe('# Pomona\n');
  });

  it('when a path is percent-encoded but harmless then it is served', async () => {
    const res = await rawRequest(served.url, '/%6clms.txt');
    expect(res.status).toBe(200);
  });
});
