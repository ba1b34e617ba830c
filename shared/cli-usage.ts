/**
 * The usage policy both command lines share (CONTRACT.md, "Both CLIs use the same codes"):
 * a mistyped command, flag or argument exits 2, says what was wrong, suggests the nearest
 * flag or command ("Did you mean --port?"), and shows the command's usage; `--help` exits 0.
 * `agent-catalog` and `agent-auth` both apply it to their root command before adding
 * subcommands, because commander copies these settings to a subcommand when it is created.
 */
import { type Command, CommanderError } from 'commander';

/** The exit status of a bad argument or flag, in both CLIs. */
export const USAGE_EXIT_STATUS = 2;

/** Turns the policy on for `program` and every subcommand added after this call. */
export function applyUsagePolicy(program: Command): Command {
  return program.showHelpAfterError().showSuggestionAfterError().exitOverride();
}

/**
 * The exit status for an error commander threw after `exitOverride`: 0 for help and
 * version, 2 for every usage mistake; undefined when the error is not commander's.
 */
export function usageExitStatus(error: unknown): 0 | 2 | undefined {
  if (!(error instanceof CommanderError)) return undefined;
  return error.exitCode === 0 ? 0 : USAGE_EXIT_STATUS;
}

/** Refuses the command with a usage error: the message, the usage, exit 2. */
export function refuseUsage(command: Command, message: string): never {
  command.error(message, { exitCode: USAGE_EXIT_STATUS, code: 'cli.usage' });
}
