/**
 * One preview over one temporary bundle, for the tests that serve a bundle over real
 * HTTP: writes the files, starts preview on a free loopback port, and stops the server
 * and removes the directory with one `close`, so each test file's set-up is one line.
 */
import type { Artifact } from '../../../generator/artifact.js';
import { type PreviewServerOptions, startPreviewServer } from '../../../generator/preview/server.js';
import { writeTempBundle } from '../../helpers/write-bundle.js';

export interface ServedBundle {
  /** The bundle directory preview serves. */
  dir: string;
  /** The preview's base URL. */
  url: string;
  close(): Promise<void>;
}

export async function serveTempBundle(
  files: readonly Pick<Artifact, 'path' | 'body'>[],
  options: Omit<PreviewServerOptions, 'dir' | 'port'> = {},
): Promise<ServedBundle> {
  const bundle = await writeTempBundle(files);
  try {
    const server = await startPreviewServer({ ...options, dir: bundle.dir, port: 0 });
    const close = async (): Promise<void> => {
      await server.close();
      await bundle.cleanup();
    };
    return { dir: bundle.dir, url: server.url, close };
  } catch (error) {
    await bundle.cleanup();
    throw error;
  }
}
