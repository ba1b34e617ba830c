/** `agent-catalog preview`: serves a built bundle as the CDN would (issue 4). */
import type { CommandIo } from './io.js';

export interface PreviewCommandOptions {
  dir: string;
  port: number;
  host: string;
  rateLimit?: number;
  quiet: boolean;
}

/** Resolves once the server has closed after SIGINT/SIGTERM; returns the exit status. */
export async function runPreview(_options: PreviewCommandOptions, io: CommandIo): Promise<number> {
  io.stderr.write('agent-catalog preview: not implemented yet\n');
  return 1;
}
