/**
 * Runs the compiled `agent-catalog` CLI as a real child process, the way CI runs it, and
 * collects its exit status and output. A guard kills a process that outlives its bound,
 * so a hanging build fails the test (with `killed: true`) instead of stalling the suite.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../pipeline/helpers.js';

export const CLI = join(REPO_ROOT, 'lib/generator/cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** `npm test` compiles lib/ first (pretest); a direct `vitest run` may not have. */
export async function ensureCompiled(): Promise<void> {
  if (existsSync(CLI)) return;
  await promisify(execFile)(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: REPO_ROOT,
    },
  ).catch(() => {
    // tsc exits non-zero on type errors elsewhere but still emits; the existence check below decides.
  });
  if (!existsSync(CLI)) throw new Error(`cannot compile ${CLI}`);
}

export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; limitMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...options.env };
    for (const key of Object.keys(env))
      if (key.startsWith('AGENT_CATALOG_') && !options.env?.[key]) delete env[key];
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const guard = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, options.limitMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, killed });
    });
  });
}
