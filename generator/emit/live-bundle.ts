/**
 * Bundles the live handler's runtime shells with esbuild, so the files the bundle ships
 * (`_worker.js`, the Netlify function) hold the core and every dependency and need no
 * `npm install` at the host. It reads the TypeScript sources of `live/` (present in every
 * clone; the compiled `lib/` may be stale in a test run) and nothing else, offline. The
 * output is minified ES2022 for a web-standard runtime (`platform: 'browser'`: workerd and
 * Netlify's Node both offer `fetch`, `Request`, `Response` and Web Crypto), with no
 * timestamps and no paths, so the same sources give the same bytes. The code does not
 * depend on the build plan, so it is bundled once per process.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { CatalogError } from '../errors.js';

export interface LiveShellCode {
  /** Cloudflare Pages' `_worker.js`: `export default { fetch }`. */
  cloudflare: string;
  /** The Netlify Functions v2 handler: `export default (request) => …` (its `config` is added by the emitter). */
  netlify: string;
}

const SHELLS = {
  cloudflare: 'live/shells/cloudflare-pages.ts',
  netlify: 'live/shells/netlify-function.ts',
} as const;

/** The repository root: two levels above this module in the sources, three in `lib/`. */
function findSourceRoot(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const root of [join(here, '..', '..'), join(here, '..', '..', '..')]) {
    if (existsSync(join(root, SHELLS.cloudflare))) return root;
  }
  throw new CatalogError(
    'OUTPUT_INVALID',
    `the live handler's sources (${SHELLS.cloudflare}) are not beside ${here}`,
    {
      path: SHELLS.cloudflare,
    },
  );
}

/** One esbuild run, uncached (the tests run it twice to see the same bytes). */
export function bundleShells(): LiveShellCode {
  const root = findSourceRoot();
  const result = buildSync({
    absWorkingDir: root,
    entryPoints: { cloudflare: SHELLS.cloudflare, netlify: SHELLS.netlify },
    outdir: 'live-out',
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['worker', 'browser'],
    target: 'es2022',
    minify: true,
    // Licence comments kept, gathered at the end of each file (esbuild's default for ESM).
    legalComments: 'eof',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const code = (name: keyof LiveShellCode): string => {
    const file = result.outputFiles.find(
      (output) => relative(join(root, 'live-out'), output.path) === `${name}.js`,
    );
    if (file === undefined)
      throw new CatalogError('OUTPUT_INVALID', `esbuild wrote no ${name} shell`, { shell: name });
    return file.text;
  };
  return { cloudflare: code('cloudflare'), netlify: code('netlify') };
}

let bundled: LiveShellCode | undefined;

/** The bundled shells; esbuild's errors (a missing dependency) surface as OUTPUT_INVALID. */
export function bundleLiveShells(): LiveShellCode {
  if (bundled !== undefined) return bundled;
  try {
    bundled = bundleShells();
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new CatalogError(
      'OUTPUT_INVALID',
      "the live handler's shells could not be bundled",
      {},
      { cause: error },
    );
  }
  return bundled;
}
