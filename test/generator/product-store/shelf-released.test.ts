/**
 * Once the merged products are kept for the plan, the normaliser's shelf (its tables of
 * digests, slugs and offsets: about 90 MB at 1,000,000 products) is let go, not held until
 * the build ends: by the time the gate runs, a full collection frees it.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../../generator/build.js';
import type { BuildStage } from '../../../generator/pipeline.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import { FIXED_NOW, makeWorkspace, writingBuildOptions } from '../pipeline/helpers.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

describe('the normaliser’s shelf', () => {
  it('when the products are kept on disk then the shelf is free to collect before the gate runs', async () => {
    let shelf: WeakRef<object> | undefined;
    let heldAtValidate: boolean | undefined;
    await build({
      ...writingBuildOptions(dir, FIXED_NOW),
      productsOnDiskFrom: 0,
      fetchUpstream: async (...args) => {
        const result = await fetchUpstream(...args);
        if (result.shelved !== undefined) shelf = new WeakRef(result.shelved);
        return result;
      },
      onStage: (stage: BuildStage) => {
        if (stage !== 'validate') return;
        collect();
        heldAtValidate = shelf?.deref() !== undefined;
      },
    });
    // Otherwise the test proved nothing: the products went through a shelf, and the gate ran.
    expect(shelf).toBeDefined();
    expect(heldAtValidate).toBe(false);
  });
});
