import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfigFile, resolveConfigSources } from '../../../generator/config-file.js';
import { isCatalogError } from '../../../generator/errors.js';
import { makeWorkspace } from '../pipeline/helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace('sample-small'));
});
afterEach(() => cleanup());

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('loadConfigFile', () => {
  it('when the file is missing then CONFIG_INVALID names it', async () => {
    const error = await rejection(loadConfigFile(join(dir, 'nope.json')));
    expect(isCatalogError(error, 'CONFIG_INVALID') && error.details.file).toBe(join(dir, 'nope.json'));
  });

  it('when the JSON is invalid then the error gives the line of the mistake', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, '{\n  "merchant": {\n    "name": "x",,\n  }\n}\n');
    const error = await rejection(loadConfigFile(file));
    expect(isCatalogError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error instanceof Error && /line 3\b/.test(error.message)).toBe(true);
  });

  it('when the file is valid then its directory is where relative paths resolve', async () => {
    const loaded = await loadConfigFile(join(dir, 'catalog.config.json'));
    expect(loaded.configDir).toBe(dir);
    expect(loaded.raw).toMatchObject({ merchant: { slug: 'fixture' } });
  });
});

describe('resolveConfigSources', () => {
  it('when --site-url is not a URL then FLAG_INVALID names the flag', async () => {
    const error = await rejection(
      resolveConfigSources({ configPath: 'catalog.config.json', cwd: dir, flags: { site_url: 'not a url' } }),
    );
    expect(isCatalogError(error, 'FLAG_INVALID') && error.details.flag).toBe('--site-url');
  });

  it('when an AGENT_CATALOG_ variable is not a URL then FLAG_INVALID names the variable', async () => {
    const error = await rejection(
      resolveConfigSources({
        configPath: 'catalog.config.json',
        cwd: dir,
        env: { AGENT_CATALOG_AUTH_URL: 'ftp://x' },
      }),
    );
    expect(isCatalogError(error, 'FLAG_INVALID') && error.details.flag).toBe('AGENT_CATALOG_AUTH_URL');
  });

  /** A source file at `somewhere/other/products.json` under the workspace; returns the `somewhere` folder. */
  async function writeSourceFile(): Promise<string> {
    const somewhere = join(dir, 'somewhere');
    await mkdir(join(somewhere, 'other'), { recursive: true });
    await writeFile(join(somewhere, 'other', 'products.json'), '{"products": []}');
    return somewhere;
  }

  it('when --source is a relative path then it resolves against the working directory, not the config folder', async () => {
    const somewhere = await writeSourceFile();
    const config = await resolveConfigSources({
      configPath: join(dir, 'catalog.config.json'),
      cwd: somewhere,
      flags: { source: 'other/products.json' },
    });
    expect(config.upstream.source).toBe(join(somewhere, 'other', 'products.json'));
  });

  it('when --source is a file: URL then it becomes that path, not a name under the working directory', async () => {
    const somewhere = await writeSourceFile();
    const file = join(somewhere, 'other', 'products.json');
    const config = await resolveConfigSources({
      configPath: join(dir, 'catalog.config.json'),
      cwd: '/elsewhere',
      flags: { source: pathToFileURL(file).href },
    });
    expect(config.upstream.source).toBe(file);
  });

  it('when the --source file does not exist then FLAG_INVALID names the flag and the resolved absolute path', async () => {
    const error = await rejection(
      resolveConfigSources({
        configPath: join(dir, 'catalog.config.json'),
        cwd: dir,
        flags: { source: 'typo/products.json' },
      }),
    );
    expect(isCatalogError(error, 'FLAG_INVALID') && error.details).toMatchObject({
      flag: '--source',
      path: join(dir, 'typo', 'products.json'),
    });
  });

  it('when the AGENT_CATALOG_SOURCE file does not exist then FLAG_INVALID names the variable', async () => {
    const error = await rejection(
      resolveConfigSources({
        configPath: join(dir, 'catalog.config.json'),
        cwd: dir,
        env: { AGENT_CATALOG_SOURCE: 'missing.json' },
      }),
    );
    expect(isCatalogError(error, 'FLAG_INVALID') && error.details.flag).toBe('AGENT_CATALOG_SOURCE');
  });

  it('when --source is a URL then it is kept as given', async () => {
    const config = await resolveConfigSources({
      configPath: join(dir, 'catalog.config.json'),
      cwd: '/somewhere',
      flags: { source: 'https://store.example/products.json' },
    });
    expect(config.upstream.source).toBe('https://store.example/products.json');
  });

  it('when a flag and env both set auth_url then the flag wins', async () => {
    const config = await resolveConfigSources({
      configPath: 'catalog.config.json',
      cwd: dir,
      flags: { auth_url: 'https://flag.example' },
      env: { AGENT_CATALOG_AUTH_URL: 'https://env.example' },
    });
    expect(config.auth_url).toBe('https://flag.example');
  });
});
