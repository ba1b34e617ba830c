import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { type BuildOptions, build } from '../../../generator/build.js';
import { isCatalogError } from '../../../generator/errors.js';
import { readBundleDirShape, shapeOfArtifacts } from '../../../generator/hosting/bundle-shape.js';
import { checkEveryHost, checkHostFit, describeBundleShape } from '../../../generator/hosting/host-fit.js';
import { judgeHostFit } from '../../../generator/hosting/judge-host-fit.js';
import { silentLogger } from '../../../generator/logger.js';
import { catchError } from '../../helpers/catch-error.js';
import { FIXED_NOW, makeWorkspace } from '../pipeline/helpers.js';

const MIB = 1024 * 1024;
const NO_RULES = { headerRules: 0, routeRules: 0, workerCompressedBytes: 0, functionCompressedBytes: 0 };

function files(count: number, folder: string, bytes = 10): [string, number][] {
  return Array.from({ length: count }, (_, index) => [`${folder}/f${index}.md`, bytes]);
}

describe('which hosts a bundle fits', () => {
  it('when a bundle has 20,001 files then Cloudflare Pages Free refuses it, naming the figure, and the paid plan and Netlify take it', () => {
    const shape = describeBundleShape([...files(10_000, 'a'), ...files(10_001, 'b')], NO_RULES);
    const [free, paid, netlify] = checkEveryHost(shape);
    expect(free?.breaches.map((breach) => [breach.limit, breach.figure, breach.allowed])).toEqual([
      ['files', 20_001, 20_000],
    ]);
    expect(free?.breaches[0]?.message).toContain('cloudflare-pages-free');
    expect(paid?.fits).toBe(true);
    expect(netlify?.fits).toBe(true);
  });

  it('when one file is over 25 MiB then both Cloudflare plans refuse it, naming the file', () => {
    const shape = describeBundleShape(
      [
        ['feed.xml', 25 * MIB + 1],
        ['robots.txt', 100],
      ],
      NO_RULES,
    );
    for (const host of ['cloudflare-pages-free', 'cloudflare-pages-paid'] as const) {
      const fit = checkHostFit(shape, host);
      expect(fit.breaches.map((breach) => breach.limit)).toEqual(['bytesPerFile']);
      expect(fit.breaches[0]?.message).toContain('feed.xml');
    }
    expect(checkHostFit(shape, 'netlify').fits).toBe(true);
  });

  it('when one folder holds 54,001 files then Netlify refuses it, naming the folder', () => {
    const fit = checkHostFit(describeBundleShape(files(54_001, 'kb/products'), NO_RULES), 'netlify');
    expect(fit.breaches.map((breach) => [breach.limit, breach.figure])).toEqual([['filesPerFolder', 54_001]]);
    expect(fit.breaches[0]?.message).toContain('kb/products/');
  });

  it('when the rules or the worker are over the limits then Cloudflare refuses them', () => {
    const shape = describeBundleShape(files(3, 'x'), {
      headerRules: 101,
      routeRules: 101,
      workerCompressedBytes: 3 * MIB + 1,
      functionCompressedBytes: 0,
    });
    expect(checkHostFit(shape, 'cloudflare-pages-free').breaches.map((breach) => breach.limit)).toEqual([
      'headerRules',
      'routeRules',
      'workerCompressedBytes',
    ]);
    expect(checkHostFit(shape, 'cloudflare-pages-paid').breaches.map((breach) => breach.limit)).toEqual([
      'headerRules',
      'routeRules',
    ]);
  });

  it('when a parted document needs more fetches than Cloudflare Free allows, or more bytes than a Netlify function streams, then those hosts refuse it', () => {
    const shape = describeBundleShape(files(3, 'x'), {
      ...NO_RULES,
      mostParts: { path: 'feed.xml', parts: 999 },
      largestStreamed: { path: 'feed.xml', bytes: 20_000_001 },
    });
    // 999 parts, the manifest and the index: 1,001 fetches of Cloudflare's assets binding.
    expect(
      checkHostFit(shape, 'cloudflare-pages-free').breaches.map((breach) => [breach.limit, breach.figure]),
    ).toEqual([['subrequests', 1_001]]);
    expect(checkHostFit(shape, 'cloudflare-pages-paid').fits).toBe(true);
    expect(checkHostFit(shape, 'netlify').breaches.map((breach) => breach.limit)).toEqual(['streamedBytes']);
    const fewer = describeBundleShape(files(3, 'x'), {
      ...NO_RULES,
      mostParts: { path: 'feed.xml', parts: 998 },
    });
    expect(checkHostFit(fewer, 'cloudflare-pages-free').fits).toBe(true);
  });

  it('when artifacts are measured then a gzip artifact counts at its compressed size', () => {
    const text = 'row\n'.repeat(100_000);
    const artifacts: Artifact[] = [
      { path: 'feeds/a.jsonl.gz', mediaType: 'application/gzip', body: text, encoding: 'gzip' },
      { path: 'b.txt', mediaType: 'text/plain', body: 'hello' },
    ];
    const shape = shapeOfArtifacts(artifacts);
    expect(shape.files).toBe(2);
    expect(shape.largestFile.bytes).toBeLessThan(text.length / 10);
  });

  it('when the bundle breaks a host the merchant deploys to then the build refuses it; another host is a warning', () => {
    const fits = checkEveryHost(describeBundleShape(files(20_001, 'kb'), NO_RULES));
    const error = catchError(() => judgeHostFit(fits, ['cloudflare-pages-free']));
    expect(isCatalogError(error, 'HOST_LIMIT')).toBe(true);
    const warnings = judgeHostFit(fits, ['netlify']);
    expect(warnings.map((warning) => warning.code)).toEqual(['HOST_LIMIT']);
    expect(warnings[0]?.message).toContain('cloudflare-pages-free');
  });

  it('when the sample store is built for Cloudflare Pages Free then it fits every host and nothing is said', async () => {
    const { dir, cleanup } = await makeWorkspace('sample-small');
    try {
      const { writeFile, readFile } = await import('node:fs/promises');
      const configFile = `${dir}/catalog.config.json`;
      const config = JSON.parse(await readFile(configFile, 'utf8')) as { build: Record<string, unknown> };
      config.build.hosts = ['cloudflare-pages-free', 'netlify'];
      await writeFile(configFile, JSON.stringify(config));
      const options: BuildOptions = {
        configPath: 'catalog.config.json',
        out: 'dist',
        cwd: dir,
        write: false,
        logger: silentLogger,
        now: () => FIXED_NOW,
      };
      const result = await build(options);
      expect(result.hosts.map((fit) => [fit.host, fit.fits])).toEqual([
        ['cloudflare-pages-free', true],
        ['cloudflare-pages-paid', true],
        ['netlify', true],
      ]);
      expect(result.warnings.filter((warning) => warning.code === 'HOST_LIMIT')).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  it('when a bundle directory holds a file over 25 MiB then its shape names that file for both Cloudflare plans', async () => {
    const { dir, cleanup } = await makeWorkspace('sample-small');
    try {
      await build({
        configPath: 'catalog.config.json',
        out: 'dist',
        cwd: dir,
        write: true,
        logger: silentLogger,
        now: () => FIXED_NOW,
      });
      const fitting = checkEveryHost(await readBundleDirShape(`${dir}/dist`));
      expect(fitting.every((fit) => fit.fits)).toBe(true);
      const { truncate } = await import('node:fs/promises');
      await truncate(`${dir}/dist/feed.xml`, 25 * MIB + 1);
      const [free, paid, netlify] = checkEveryHost(await readBundleDirShape(`${dir}/dist`));
      for (const fit of [free, paid])
        expect(fit?.breaches.map((breach) => breach.message).join()).toContain('feed.xml');
      expect(netlify?.fits).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
