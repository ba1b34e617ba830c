import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  with?: Record<string, unknown>;
}
interface Workflow {
  on: {
    schedule?: { cron: string }[];
    workflow_dispatch?: unknown;
    repository_dispatch?: { types?: string[] };
  };
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, { steps: Step[] }>;
}

const workflowPath = new URL('../../../.github/workflows/regenerate.yml', import.meta.url);
const workflow = yaml.load(readFileSync(workflowPath, 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const buildStep = steps.find((step) => step.id === 'build');
const deployStep = steps.find((step) => step.run?.includes('netlify-cli deploy'));
const budgetStep = steps.find((step) => step.id === 'budget');

describe('the regenerate workflow', () => {
  it('runs every 15 minutes and on demand, one run at a time', () => {
    expect(workflow.on.schedule?.map((entry) => entry.cron)).toEqual(['*/15 * * * *']);
    expect('workflow_dispatch' in workflow.on).toBe(true);
    expect(workflow.concurrency?.group).toBeTruthy();
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false);
  });

  it("runs on the webhook receiver's catalog-changed dispatch too, with the schedule kept as the safety net", () => {
    expect(workflow.on.repository_dispatch?.types).toEqual(['catalog-changed']);
    expect(workflow.on.schedule).toHaveLength(1);
  });

  it('deploys only within the daily budget, counted after the build and before the deploy', () => {
    expect(deployStep?.if).toContain("steps.budget.outputs.allowed == 'true'");
    expect(steps.indexOf(budgetStep as Step)).toBeGreaterThan(steps.indexOf(buildStep as Step));
    expect(steps.indexOf(budgetStep as Step)).toBeLessThan(steps.indexOf(deployStep as Step));
    const record = steps.find((step) => step.run?.includes('deploy-budget.js record'));
    expect(record?.if).toBe("steps.deploy.outcome == 'success'");
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

describe('what the regenerate workflow keeps between runs', () => {
  const cacheSteps = steps.filter((step) => step.uses?.startsWith('actions/cache/'));
  const pathsOf = (kind: 'restore' | 'save') =>
    cacheSteps
      .filter((step) => step.uses?.startsWith(`actions/cache/${kind}@`))
      .map((step) => step.with?.path);

  it('keeps the build cache and never the bundle', () => {
    expect(pathsOf('restore')).toContain('.dist-cache');
    expect(pathsOf('save')).toContain('.dist-cache');
    expect([...pathsOf('restore'), ...pathsOf('save')]).not.toContain('dist');
  });

  it('restores the cache before the build and saves it only after a deploy that succeeded', () => {
    const restore = cacheSteps.find(
      (step) => step.uses?.startsWith('actions/cache/restore@') && step.with?.path === '.dist-cache',
    );
    const save = cacheSteps.find(
      (step) => step.uses?.startsWith('actions/cache/save@') && step.with?.path === '.dist-cache',
    );
    expect(steps.indexOf(restore as Step)).toBeLessThan(steps.indexOf(buildStep as Step));
    // The cache remembers the bundle it published: only a deployed one may be the next baseline.
    expect(save?.if).toBe("steps.deploy.outcome == 'success'");
    expect(steps.indexOf(save as Step)).toBeGreaterThan(steps.indexOf(deployStep as Step));
  });
});

describe('the deploy budget step', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Runs the step as GitHub does, in a folder whose `lib` is the compiled repository's, with `deploys` in the log. */
  function runBudgetStep(deploys: number): { status: number | null; outputs: string; summary: string } {
    dir = mkdtempSync(join(tmpdir(), 'regenerate-budget-'));
    symlinkSync(fileURLToPath(new URL('../../../lib', import.meta.url)), join(dir, 'lib'));
    mkdirSync(join(dir, '.deploy-log'));
    const now = Date.now();
    const times = Array.from({ length: deploys }, (_, index) =>
      new Date(now - (index + 1) * 60_000).toISOString(),
    );
    writeFileSync(join(dir, '.deploy-log', 'deploys.txt'), times.join('\n'));
    const outputs = join(dir, 'outputs');
    const summary = join(dir, 'summary');
    writeFileSync(outputs, '');
    writeFileSync(summary, '');
    const result = spawnSync(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', budgetStep?.run ?? 'exit 99'],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          GITHUB_OUTPUT: outputs,
          GITHUB_STEP_SUMMARY: summary,
          DEPLOY_DAILY_LIMIT: '90',
        },
        encoding: 'utf8',
      },
    );
    return {
      status: result.status,
      outputs: readFileSync(outputs, 'utf8'),
      summary: readFileSync(summary, 'utf8'),
    };
  }

  it('when fewer deploys than the limit went out in the last day then the deploy is allowed', () => {
    const { status, outputs, summary } = runBudgetStep(3);
    expect(status).toBe(0);
    expect(outputs).toMatch(/^allowed=true$/m);
    expect(outputs).toMatch(/^count=3$/m);
    expect(summary).toBe('');
  });

  it('when the limit is reached then the deploy is held back and the job summary says so', () => {
    const { status, outputs, summary } = runBudgetStep(90);
    expect(status).toBe(0);
    expect(outputs).toMatch(/^allowed=false$/m);
    expect(summary).toContain('Deploy held back');
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
