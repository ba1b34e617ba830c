/**
 * The newcomer's path from the docs (docs/preview-and-check.md): build the sample, serve it
 * with `preview`, and check the preview. The bundle names its production site_url, so a
 * plain `check <preview-url>` must fail saying what to add, and `check <preview-url> --as
 * <site_url>` must pass. Both programs run as real processes of the compiled CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';
import { CLI, ensureCompiled, runCli } from './run-cli.js';

const SITE_URL = 'https://pomona-juice.example';

let preview: ChildProcess | undefined;
let previewUrl = '';
let cleanup: () => Promise<void> = async () => {};

function startPreview(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'preview', '--dir', dir, '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`preview exited ${code} before listening`)));
  });
}

beforeAll(async () => {
  await ensureCompiled();
  const workspace = await makeWorkspace();
  cleanup = workspace.cleanup;
  const out = join(workspace.dir, 'dist');
  const config = join(REPO_ROOT, 'catalog.config.json');
  const built = await runCli(['build', '--quiet', '--config', config, '--out', out], {
    cwd: workspace.dir,
    limitMs: 60_000,
  });
  expect(built.code).toBe(0);
  ({ child: preview, url: previewUrl } = await startPreview(out));
}, 60_000);

afterAll(async () => {
  preview?.kill('SIGTERM');
  await cleanup();
});

describe('npm run preview, then npm run check against it', () => {
  it('when check is pointed at the preview alone then it fails and names the --as it needs', async () => {
    const run = await runCli(['check', previewUrl], { cwd: REPO_ROOT, limitMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`add --as "${SITE_URL}"`);
  });

  it('when check is given --as <site_url> then the production bundle under preview is all valid', async () => {
    const run = await runCli(['check', previewUrl, '--as', SITE_URL], { cwd: REPO_ROOT, limitMs: 60_000 });
    expect(run.stdout).toContain('all valid');
    expect(run.code).toBe(0);
  });

  it('when --as is given with a directory then check exits 2', async () => {
    const run = await runCli(['check', 'dist', '--as', SITE_URL], { cwd: REPO_ROOT, limitMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--as applies to a site URL');
  });
});
