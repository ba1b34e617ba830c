/** `agent-catalog build`: runs the pipeline and publishes the bundle (issue 2). */
import type { CommandIo } from './io.js';

export interface BuildCommandOptions {
  config: string;
  source?: string;
  sourceFormat?: 'native' | 'shopify' | 'woocommerce';
  out: string;
  siteUrl?: string;
  baseUrl?: string;
  authUrl?: string;
  json: boolean;
  quiet: boolean;
  strict: boolean;
  allowShrink: boolean;
}

/** Returns the exit status (0 built, 1 upstream failed or refused, 2 bad input). */
export async function runBuild(_options: BuildCommandOptions, io: CommandIo): Promise<number> {
  io.stderr.write('agent-catalog build: not implemented yet\n');
  return 1;
}
