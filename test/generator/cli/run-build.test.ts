import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildCommandOptions, runBuild } from '../../../generator/commands/build.js';
import type { CommandIo } from '../../../generator/commands/io.js';
import { makeWorkspace } from '../pipeline/helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

interface Captured extends CommandIo {
  out: string[];
  err: string[];
}

function makeIo(options: { tty: boolean; env?: Record<string, string> }): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (chunk: string) => out.push(chunk), isTTY: false },
    stderr: { write: (chunk: string) => err.push(chunk), isTTY: options.tty },
    env: options.env ?? {},
    cwd: dir,
  };
}

const defaults: BuildCommandOptions = {
  config: 'catalog.config.json',
  out: 'dist',
  json: false,
  quiet: false,
  strict: false,
  allowShrink: false,
  allowEmpty: false,
};

describe('runBuild output', () => {
  it('when stderr is a terminal then one progress line per stage is printed there, in colour', async () => {
    const io = makeIo({ tty: true });
    expect(await runBuild(defaults, io)).toBe(0);
    const progress = io.err.filter((line) => /\[\d\/8\]/.test(line));
    expect(progress).toHaveLength(8);
    expect(progress.join('')).toContain('\u001b[');
    // And the counts a person follows: products read, documents written.
    const text = io.err.join('');
    expect(text).toMatch(/read 4 products \(shopify, 0 requests, 0 refused\)/);
    expect(text).toMatch(/\d+ documents: \d+ written, 0 unchanged, 0 removed/);
  });

  it('when NO_COLOR is set then progress has no escape codes', async () => {
    const io = makeIo({ tty: true, env: { NO_COLOR: '1' } });
    await runBuild(defaults, io);
    expect(io.err.join('')).not.toContain('\u001b[');
    expect(io.err.filter((line) => /\[\d\/8\]/.test(line))).toHaveLength(8);
  });

  it('when stderr is not a terminal (CI) then no progress is printed', async () => {
    const io = makeIo({ tty: false });
    await runBuild(defaults, io);
    // Warnings still reach stderr; progress lines do not.
    expect(io.err.filter((line) => !line.startsWith('warning: '))).toEqual([]);
  });

  it('when a price changes then the closing summary on stdout lists it', async () => {
    await runBuild(defaults, makeIo({ tty: false }));
    const file = join(dir, 'upstream/products.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as {
      products: { handle: string; variants: { price: string }[] }[];
    };
    for (const product of data.products) {
      if (product.handle === 'green-glow') for (const variant of product.variants) variant.price = '11.25';
    }
    await writeFile(file, JSON.stringify(data));
    const io = makeIo({ tty: false });
    expect(await runBuild(defaults, io)).toBe(0);
    const text = io.out.join('');
    expect(text).toContain('changed: yes');
    expect(text).toMatch(/green-glow: 9\.50 -> 11\.25/);
  });

  it('when the build fails then the error code and cause chain go to stderr once and stdout stays empty', async () => {
    const io = makeIo({ tty: false });
    expect(await runBuild({ ...defaults, config: 'missing.json' }, io)).toBe(2);
    expect(io.out).toEqual([]);
    expect(io.err.join('').match(/CONFIG_INVALID/g)).toHaveLength(1);
    expect(io.err.join('')).not.toMatch(/^\s+at /m);
  });
});
