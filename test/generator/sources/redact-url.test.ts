/**
 * A store URL may carry credentials (user info, `consumer_secret`, `access_token`); they
 * must never reach a message, a log line or the error details a build prints.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { isCatalogError } from '../../../generator/errors.js';
import { redactUrl } from '../../../generator/http/redact-url.js';
import { fetchUpstream } from '../../../generator/sources/index.js';
import { startUpstreamServer, type UpstreamServer } from '../../helpers/upstream-server.js';
import { makeContext, makeUpstreamConfig } from './upstream-setup.js';

const SECRET = 's3cr3t-value';

describe('redactUrl', () => {
  test('hides user info and secret-looking query values, and keeps the rest of the URL', () => {
    const shown = new URL(
      redactUrl(
        `https://ck_user:${SECRET}@shop.example/wp-json/x?consumer_secret=${SECRET}&page=2&access_token=${SECRET}`,
      ),
    );
    expect(shown.username).toBe('redacted');
    expect(shown.password).toBe('redacted');
    expect(shown.searchParams.get('consumer_secret')).toBe('redacted');
    expect(shown.searchParams.get('access_token')).toBe('redacted');
    expect(shown.searchParams.get('page')).toBe('2');
    expect(shown.host).toBe('shop.example');
    expect(shown.pathname).toBe('/wp-json/x');
  });

  test('leaves a file path and a URL without credentials as they are', () => {
    expect(redactUrl('sample/upstream/products.json')).toBe('sample/upstream/products.json');
    expect(redactUrl('https://shop.example/products.json?limit=250')).toBe(
      'https://shop.example/products.json?limit=250',
    );
  });
});

describe('an upstream URL with credentials', () => {
  let server: UpstreamServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('when the store fails then neither the error, its details nor the log lines carry the secret', async () => {
    server = await startUpstreamServer({ mode: 'status500' });
    const withSecret = `${server.url.replace('http://', `http://user:${SECRET}@`)}/products.json?access_token=${SECRET}`;
    const context = makeContext();
    const error = await fetchUpstream(makeUpstreamConfig(withSecret, { retries: 1 }), context).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isCatalogError(error, 'UPSTREAM_HTTP')).toBe(true);
    const printed = JSON.stringify({
      message: error instanceof Error ? error.message : '',
      details: isCatalogError(error) ? error.details : {},
      logs: context.logger.lines,
    });
    expect(printed).toContain('redacted');
    expect(printed).not.toContain(SECRET);
    // The request itself still carried the query the operator configured.
    expect(server.requests[0]?.query.access_token).toBe(SECRET);
  });
});
