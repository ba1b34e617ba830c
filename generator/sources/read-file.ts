/**
 * Reads an upstream document from a file next to the config (a native catalog, or a
 * saved Shopify/WooCommerce page), under the same size cap as a download, and maps a
 * missing or unreadable file to UPSTREAM_NETWORK and unparsable JSON to UPSTREAM_SHAPE,
 * so a file source fails a build exactly as an unreachable store would.
 */
import { readFile, stat } from 'node:fs/promises';
import { CatalogError } from '../errors.js';

export async function readJsonFile(path: string, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > maxBytes) {
      throw new CatalogError('UPSTREAM_TOO_LARGE', `upstream file ${path} is larger than ${maxBytes} bytes`, {
        url: path,
        file: path,
        status: undefined,
        maxBytes,
      });
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
      `upstream file ${path} is not valid JSON`,
      { url: path, file: path },
      { cause: error },
    );
  }
}
