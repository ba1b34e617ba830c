/**
 * `agent-catalog preview` as a real child process, for the tests that start it as a person
 * would (or `serve`, the same server): `startCli` resolves once it prints `listening on <url>` (with everything it printed
 * on stdout so far), `runToExit` runs one that is expected to refuse to start.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'lib', 'generator', 'cli.js');

export interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

export function startCli(
  args: string[],
  command: 'preview' | 'serve' = 'preview',
  env: NodeJS.ProcessEnv = process.env,
): Promise<Running> {
  const child = spawn(process.execPath, [CLI, command, ...args], { cwd: ROOT, stdio: 'pipe', env });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening on" line within 15 s; stderr: ${stderr}`));
    }, 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/\S+)\n/m.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], stdout: () => stdout, stderr: () => stderr, exit });
      }
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening; stderr: ${stderr}`));
    });
  });
}

export function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'preview', ...args],
      { cwd: ROOT, timeout: 15_000 },
      (error, stdout, stderr) => {
        const code =
          error && 'code' in error && typeof error.code === 'number' ? error.code : error ? null : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
