/**
 * A temporary copy of the embedded sample (its store, content and config), for CLI tests
 * that change one thing in it and run the compiled build the way the 15-minute job does.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { makeWorkspace, REPO_ROOT } from '../pipeline/helpers.js';

export async function makeSampleWorkspace(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const workspace = await makeWorkspace();
  await cp(join(REPO_ROOT, 'sample'), join(workspace.dir, 'sample'), { recursive: true });
  await cp(join(REPO_ROOT, 'catalog.config.json'), join(workspace.dir, 'catalog.config.json'));
  return workspace;
}
