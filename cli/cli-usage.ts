/**
 * The usage policy both command lines share (CONTRACT.md, "Both CLIs use the same codes"):
 * a mistyped command, flag or argument exits 2, says what was wrong, suggests the nearest
 * flag or command ("Did you mean --port?"), and shows the command's usage; `--help` exits 0.
 * `agent-catalog` and `agent-auth` both apply it to their root command before adding
 * subcommands, because commander copies these settings to a subcommand when it is created.
 */
import { type Command, CommanderError } from 'commander';
import { nearestName } from './nearest-name.js';

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

/** Refuses the command with a usage error, worded as commander's own: the message, the usage, exit 2. */
export function refuseUsage(command: Command, message: string): never {
  command.error(`error: ${message}`, { exitCode: USAGE_EXIT_STATUS, code: 'cli.usage' });
}

/**
 * For a program with a default command: a first word that names no command would be
 * passed to the default command as an argument ("too many arguments for 'serve'"); refuse
 * it as the unknown command it is, with the nearest command's name.
 */
export function refuseUnknownCommand(program: Command, args: readonly string[]): void {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return;
  const names = ['help', ...program.commands.flatMap((command) => [command.name(), ...command.aliases()])];
  if (names.includes(first)) return;
  const suggestion = nearestName(first, names);
  const hint = suggestion === undefined ? '' : `\n(Did you mean ${suggestion}?)`;
  refuseUsage(program, `unknown command '${first}'${hint}`);
}
