/**
 * Reads an upstream document from a file next to the config (a native catalog, or a
 * saved Shopify/WooCommerce page), under the same size cap as a download, and maps a
 * missing or unreadable file to UPSTREAM_NETWORK and unparsable JSON to UPSTREAM_SHAPE,
 * so a file source fails a build exactly as an unreachable store would.
 */
import { readFile, stat } from 'node:fs/promises';
import { CatalogError } from '../errors.js';
import { describeNotJsonFix, describeSizeFix, looksLikeHtml } from './advice.js';

export async function readJsonFile(path: string, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > maxBytes) {
      throw new CatalogError(
        'UPSTREAM_TOO_LARGE',
        `upstream file ${path} is larger than ${maxBytes} bytes${describeSizeFix(maxBytes)}`,
        { url: path, file: path, status: undefined, maxBytes, field: 'upstream.max_response_bytes' },
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new CatalogError(
      'UPSTREAM_NETWORK',
      `cannot read upstream file ${path}`,
      { url: path, file: path },
      { cause: error },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CatalogError(
      'UPSTREAM_SHAPE',
      `upstream file ${path} is not valid JSON${describeNotJsonFix(path, text)}`,
      { url: path, file: path, ...(looksLikeHtml(text) ? { html: true } : {}) },
      { cause: error },
    );
  }
}
