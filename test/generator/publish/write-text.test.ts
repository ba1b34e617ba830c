import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  allocateSliceBuffers,
  SLICE_UNITS,
  writeTextVerified,
} from '../../../generator/publish/write-text.js';
import { makeWorkspace } from '../pipeline/helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace());
});
afterEach(() => cleanup());

describe('writeTextVerified', () => {
  it('when a surrogate pair straddles a slice boundary then the file is still exact UTF-8', async () => {
    // The first slice would end between the two halves of the peach.
    const text = `${'x'.repeat(SLICE_UNITS - 1)}🍑 桃 ${'é'.repeat(SLICE_UNITS * 2)}🍑\n`;
    const file = join(dir, 'big.md');
    await writeTextVerified(file, text, allocateSliceBuffers());
    expect((await readFile(file)).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('when the text is empty then an empty file is written', async () => {
    const file = join(dir, 'empty.txt');
    await writeTextVerified(file, '', allocateSliceBuffers());
    expect(await readFile(file, 'utf8')).toBe('');
  });

  it('when the file already exists then it is not overwritten', async () => {
    const file = join(dir, 'taken.txt');
    await writeFile(file, 'old');
    await expect(writeTextVerified(file, 'new', allocateSliceBuffers())).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('old');
  });
});
