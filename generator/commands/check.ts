/** `agent-catalog check [dir-or-url]`: validates a bundle on disk or a live site (issue 3). */
import type { CommandIo } from './io.js';

export interface CheckCommandOptions {
  target: string;
  json: boolean;
}

/** Returns the exit status (0 valid, 1 any failure). */
export async function runCheck(_options: CheckCommandOptions, io: CommandIo): Promise<number> {
  io.stderr.write('agent-catalog check: not implemented yet\n');
  return 1;
}
