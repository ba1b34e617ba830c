/**
 * `agent-catalog check` run in-process on a directory or URL, with its output captured,
 * and the small edits the check tests make to a written bundle (tampering with one file
 * to see the gate refuse it).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCheck } from '../../generator/commands/check.js';
import type { CommandIo } from '../../generator/commands/io.js';
import type { Problem } from '../../generator/validate/index.js';

export interface CheckRun {
  status: number;
  stdout: string;
  stderr: string;
}

export async function check(target: string, json = false): Promise<CheckRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CommandIo = {
    stdout: { write: (chunk: string) => stdout.push(chunk) },
    stderr: { write: (chunk: string) => stderr.push(chunk) },
    env: {},
    cwd: '/',
  };
  const status = await runCheck({ target, json }, io);
  return { status, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** The problems of a `--json` run; its `valid` must agree with them. */
export function problemsOf(run: CheckRun): Problem[] {
  const report = JSON.parse(run.stdout) as { valid: boolean; problems: Problem[] };
  expect(report.valid).toBe(report.problems.length === 0);
  return report.problems;
}

/** Rewrites one file of a bundle; the edit must change it. */
export async function tamper(dir: string, file: string, edit: (body: string) => string): Promise<void> {
  const path = join(dir, file);
  const before = await readFile(path, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  await writeFile(path, after);
}
