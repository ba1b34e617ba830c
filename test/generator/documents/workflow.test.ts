import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// js-yaml comes with gray-matter; it has no typings here, so only `load` is described.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown };
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, { steps: Step[] }>;
}

const workflowPath = new URL('../../../.github/workflows/regenerate.yml', import.meta.url);
const workflow = yaml.load(readFileSync(workflowPath, 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const buildStep = steps.find((step) => step.id === 'build');
const deployStep = steps.find((step) => step.run?.includes('netlify-cli deploy'));

describe('the regenerate workflow', () => {
  it('runs every 15 minutes and on demand, one run at a time', () => {
    expect(workflow.on.schedule?.map((entry) => entry.cron)).toEqual(['*/15 * * * *']);
    expect('workflow_dispatch' in workflow.on).toBe(true);
    expect(workflow.concurrency?.group).toBeTruthy();
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false);
  });

  it('installs with npm ci on Node 20 and builds with the JSON summary', () => {
    const setup = steps.find((step) => step.uses?.startsWith('actions/setup-node'));
    expect(setup).toMatchObject({ with: { 'node-version': 20, cache: 'npm' } });
    expect(steps.some((step) => step.run?.trim() === 'npm ci')).toBe(true);
    expect(buildStep?.run).toContain('npm run --silent build -- --json');
  });

  it('deploys only when the build reported a change, with the Netlify secrets named', () => {
    expect(deployStep?.if).toContain("steps.build.outputs.changed == 'true'");
    expect(deployStep?.if).not.toMatch(/always\(\)|failure\(\)/);
    expect(deployStep?.run).toContain('--prod --dir dist');
    expect(Object.keys(deployStep?.env ?? {}).sort()).toEqual(['NETLIFY_AUTH_TOKEN', 'NETLIFY_SITE_ID']);
    expect(deployStep?.env?.NETLIFY_AUTH_TOKEN).toMatch(/^\$\{\{ secrets\.NETLIFY_AUTH_TOKEN \}\}$/);
    expect(deployStep?.env?.NETLIFY_SITE_ID).toMatch(/^\$\{\{ secrets\.NETLIFY_SITE_ID \}\}$/);
    expect(steps.indexOf(deployStep as Step)).toBeGreaterThan(steps.indexOf(buildStep as Step));
  });
});

describe('the build step script', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Runs the step as GitHub does (bash -eo pipefail) with a stand-in `npm` that prints a summary and exits. */
  function runBuildStep(summary: object, exitCode: number): { status: number | null; outputs: string } {
    dir = mkdtempSync(join(tmpdir(), 'regenerate-'));
    const npm = join(dir, 'npm');
    writeFileSync(npm, `#!/bin/sh\necho '${JSON.stringify(summary)}'\nexit ${exitCode}\n`);
    chmodSync(npm, 0o755);
    const outputs = join(dir, 'outputs');
    writeFileSync(outputs, '');
    const result = spawnSync(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', buildStep?.run ?? 'exit 99'],
      {
        cwd: dir,
        env: { PATH: `${dir}:${process.env.PATH ?? ''}`, GITHUB_OUTPUT: outputs },
        encoding: 'utf8',
      },
    );
    return { status: result.status, outputs: readFileSync(outputs, 'utf8') };
  }

  it('when the upstream failed (exit 1) then the job fails and nothing is marked for deploy', () => {
    const { status, outputs } = runBuildStep({ ok: false, exitCode: 1, changed: false }, 1);
    expect(status).toBe(1);
    expect(outputs).not.toMatch(/changed=true/);
  });

  it('when the content changed then the deploy is enabled', () => {
    const { status, outputs } = runBuildStep({ ok: true, exitCode: 0, changed: true }, 0);
    expect(status).toBe(0);
    expect(outputs).toMatch(/^changed=true$/m);
  });

  it('when nothing changed then the deploy stays off', () => {
    const { status, outputs } = runBuildStep({ ok: true, exitCode: 0, changed: false }, 0);
    expect(status).toBe(0);
    expect(outputs).toMatch(/^changed=false$/m);
  });
});
