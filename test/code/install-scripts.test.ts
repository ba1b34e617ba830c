/**
 * A fresh clone's `npm ci` has nothing a newcomer must wonder about (issue 31, item 14):
 * npm 11 lists every dependency whose install script `allowScripts` in package.json does
 * not decide, and npm 12 will skip those scripts. Every package of the lockfile with an
 * install script is therefore decided here, and the one denied, esbuild's, is one this
 * project does not need: its script only fetches the platform binary when the optional
 * `@esbuild/<platform>` package is missing and swaps the CLI shim for that binary, while
 * the generator uses esbuild's JS API, which finds the binary in that optional package.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  optionalDependencies?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** The package name of a lockfile key (`node_modules/a/node_modules/@b/c` → `@b/c`). */
function nameOf(key: string): string {
  return key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('install scripts', () => {
  it('every dependency with an install script is allowed or denied in package.json', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.hasInstallScript === true)
      .map(([key]) => nameOf(key));
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts.filter((name) => typeof manifest.allowScripts?.[name] !== 'boolean');
    expect(undecided).toEqual([]);
  });

  it("esbuild's script is denied, and its binary comes from an optional platform package the lockfile pins", () => {
    expect(manifest.allowScripts?.esbuild).toBe(false);
    const esbuild = lock.packages['node_modules/esbuild'];
    const platforms = Object.keys(esbuild?.optionalDependencies ?? {});
    expect(platforms).toContain('@esbuild/linux-x64');
    for (const name of platforms) {
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(esbuild?.version);
    }
  });
});
