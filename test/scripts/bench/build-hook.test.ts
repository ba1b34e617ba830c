/**
 * The hooks bench's stand-in build hook (scripts/bench/build-hook.ts): a POST is answered
 * at once and starts the build, only the first trigger builds, and every trigger is counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type BuildHook, startBuildHook } from '../../../scripts/bench/build-hook.js';

const hooks: BuildHook[] = [];
afterEach(async () => {
  for (const hook of hooks.splice(0)) {
    await hook.idle();
    await hook.close();
  }
});

describe('startBuildHook', () => {
  it('when two triggers come then both are answered 200, counted, and the first one builds', async () => {
    const hook = await startBuildHook(
      process.execPath,
      ['-e', 'process.stdout.write("built")'],
      process.cwd(),
    );
    hooks.push(hook);
    expect((await fetch(hook.url, { method: 'POST', body: '{}' })).status).toBe(200);
    expect((await fetch(hook.url, { method: 'POST', body: '{}' })).status).toBe(200);
    const trigger = await hook.firstTrigger(10_000);
    const build = await trigger.build;
    expect(build.exitCode).toBe(0);
    expect(build.stdout).toBe('built');
    expect(hook.calls()).toBe(2);
  });

  it('when a GET comes then it is 405 and not a trigger', async () => {
    const hook = await startBuildHook(process.execPath, ['-e', '0'], process.cwd());
    hooks.push(hook);
    expect((await fetch(hook.url)).status).toBe(405);
    expect(hook.calls()).toBe(0);
    await expect(hook.firstTrigger(50)).rejects.toThrow(/no rebuild trigger/);
  });
});
