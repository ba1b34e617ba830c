import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Runs vitest on a fixture folder with the real reporter and reads what the run ends with.
const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'skip-summary');

describe('the skip summary at the end of a test run', () => {
  it('names each skipped group with its reason and count, and the unexplained ones by file', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--config',
        join(FIXTURE, 'vitest.config.ts'),
      ],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
    );
    const lines = stdout.split('\n').filter((line) => line.startsWith('skipped '));
    expect(lines).toEqual([
      'skipped 2 tests: set FOO_ENGINE_PATH to run the foo suites',
      'skipped 1 test: no reason stated (give the suite requires(…)): suites.check.ts',
    ]);
    expect(stdout).not.toContain('never shown');
  });
});
