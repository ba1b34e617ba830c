import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideFiles, ROOT } from './documents.js';
import { type CodeBlock, runnableBlocks } from './markdown.js';

// Every shell block marked `<!-- runnable -->` in README.md and docs/*.md works as
// written. A document's blocks run in order in one fresh copy of the repository (a reader
// follows a page top to bottom, so a later block may use what an earlier one wrote), with
// node_modules shared by a symlink and lib/ copied, so each block's `npm run` compiles
// there as it would in a clone. Offline: the blocks may only use loopback.

const BLOCK_TIMEOUT_MS = 120_000;

// Not the project's files: installed, built or scratch output, and the VCS.
const NOT_COPIED = new Set([
  'node_modules',
  '.git',
  'dist',
  'data',
  'coverage',
  'bench-results',
  'test-results',
  '.tmp',
]);

// Variables that would steer the commands away from what the page says.
const DROPPED_ENV = /^(AGENT_CATALOG_|AUTH_|PORT$|TEST_DATABASE_URL$|BENCH_DATABASE_URL$|npm_config_)/;

function blockEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!DROPPED_ENV.test(name)) env[name] = value;
  return {
    ...env,
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

async function copyRepository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-catalog-runnable-'));
  await cp(ROOT, dir, {
    recursive: true,
    // lib/ stays as new as the sources it was compiled from, so a block's `npm run` finds it
    // up to date (`tsc -b` decides by file times) as it would in a clone after `npm run
    // compile`, instead of a full type check in each copy (about 15 s a copy).
    preserveTimestamps: true,
    filter: (source) => {
      const name = basename(source);
      return !(NOT_COPIED.has(name) && join(ROOT, name) === source) && !name.startsWith('dist.');
    },
  });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

interface BlockRun {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** Runs one block with `bash -e` in its own process group, and stops whatever it leaves running. */
function runBlock(block: CodeBlock, cwd: string): Promise<BlockRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', block.code], {
      cwd,
      env: blockEnv(),
      detached: true,
    });
    let output = '';
    let timedOut = false;
    const collect = (data: Buffer) => {
      output = (output + data.toString()).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const stopGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group has already exited.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup('SIGKILL');
    }, BLOCK_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      stopGroup('SIGTERM');
      resolve({ code, output, timedOut });
    });
  });
}

const documents = await Promise.all(
  guideFiles().map(async (file) => ({
    file,
    blocks: runnableBlocks(await readFile(join(ROOT, file), 'utf8'), file),
  })),
);

describe('runnable blocks', () => {
  it('README.md has runnable blocks (the tour and the worked example)', () => {
    expect(documents.find((document) => document.file === 'README.md')?.blocks.length).toBeGreaterThanOrEqual(
      3,
    );
  });

  for (const { file, blocks } of documents.filter((document) => document.blocks.length > 0)) {
    describe(file, () => {
      let copy: string;
      beforeAll(async () => {
        copy = await copyRepository();
      }, 120_000);
      afterAll(async () => {
        if (copy) await rm(copy, { recursive: true, force: true });
      });

      for (const block of blocks) {
        it(
          `${file}:${block.line} works as written`,
          async () => {
            const run = await runBlock(block, copy);
            const why = run.timedOut
              ? `ran for more than ${BLOCK_TIMEOUT_MS / 1000} s`
              : `exited ${run.code}`;
            expect(
              run.code,
              `${file}:${block.line} ${why}:\n${block.code}\n--- output ---\n${run.output}`,
            ).toBe(0);
          },
          BLOCK_TIMEOUT_MS + 10_000,
        );
      }
    });
  }
});
