/**
 * Where the package's own files live (templates, the sample merchant), found from this
 * module's location so the same code works from `generator/` in tests and from
 * `lib/generator/` once compiled.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`agent-catalog: cannot find the package root above ${start}`);
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
export const TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');
