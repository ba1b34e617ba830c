/**
 * Findings 8 and 9 of issue 23, through the compiled CLI as an operator runs it. An import
 * file whose addresses carry terminal escapes (ESC, OSC, CSI, C1, CR, bidi overrides) cannot
 * retitle, recolour or overwrite the operator's terminal: every echoed value comes out
 * escaped. And `customers invite` / `import` do not mail real customers a link to the
 * operator's own machine: over SMTP, the default loopback issuer is refused, naming
 * `--issuer`, unless `--issuer` names it on purpose.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CATALOG_CONFIG } from './helpers/issuer.js';
import { type RunResult, runCli } from './helpers/run-cli.js';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.js';

function run(args: string[], cwd: string): Promise<RunResult> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AUTH_') || name === 'PORT') delete env[name];
  return runCli([...args, '--catalog-config', TEST_CATALOG_CONFIG], { cwd, env });
}

// Characters a terminal acts on: ESC (and so CSI and OSC sequences), BEL, CR, the C1 CSI,
// and the bidi override that reverses what follows.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters looked for
const ACTIVE = /[\u001b\u0007\r\u009b\u202e]/;

describe('what the customers commands print', () => {
  let dir: string;
  let sink: SmtpSink;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-cli-safety-'));
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('customers import escapes control characters in every echoed value', async () => {
    const osc = '\u001b]0;pwned\u0007';
    const csi = '\u001b[2K\u001b[31m';
    const hostile = [
      `"${osc}x${csi}@evil"`,
      `"${osc}x${csi}@evil"`,
      `"a\rcreated 99, skipped 0, rejected 0@x"`,
      `"a\rcreated 99, skipped 0, rejected 0@x"`,
      `"\u009b31m\u202eyx@evil"`,
      `"\u009b31m\u202eyx@evil"`,
    ];
    const csv = join(dir, 'hostile.csv');
    await writeFile(csv, ['Email,First Name', ...hostile.map((email) => `${email},Eve`)].join('\n'));
    const result = await run(['customers', 'import', csv], dir);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('created 0, skipped 3, rejected 3');
    expect(result.stdout).not.toMatch(ACTIVE);
    expect(result.stderr).not.toMatch(ACTIVE);
    // Each repeated address is still shown (lower-cased, as it is compared), its controls spelled out.
    expect(result.stdout).toContain('\\u001b]0;pwned\\u0007x\\u001b[2k\\u001b[31m@evil');
    expect(result.stdout).toContain('a\\u000dcreated 99');
    expect(result.stdout).toContain('\\u009b31m\\u202eyx@evil');
  });

  it('a refused file name is escaped too', async () => {
    const result = await run(['customers', 'import', join(dir, 'no\u001b[2Jfile.csv')], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(ACTIVE);
    expect(result.stderr).toContain('no\\u001b[2Jfile.csv');
  });

  it("commander's own usage errors are escaped too", async () => {
    // (Its exit status is issue 24's: here only what reaches the terminal.)
    const result = await run(['customers', 'import', 'x.csv', '--\u001b]0;pwned\u0007'], dir);
    expect(result.stderr).toContain('unknown option');
    expect(result.stderr).not.toMatch(ACTIVE);
    expect(result.stderr).toContain('\\u001b]0;pwned\\u0007');
  });

  it('over SMTP, invite and import refuse the default loopback issuer, naming --issuer', async () => {
    const csv = join(dir, 'one.csv');
    await writeFile(csv, 'Email,First Name\numa@example.com,Uma\n');
    const invite = await run(
      ['customers', 'invite', '--email', 'tia@example.com', '--name', 'Tia', '--smtp-url', sink.url],
      dir,
    );
    const imported = await run(['customers', 'import', csv, '--smtp-url', sink.url], dir);
    for (const result of [invite, imported]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--issuer');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.messages).toEqual([]);
    // Named on purpose, a loopback issuer is the operator's choice.
    const named = await run(
      [
        'customers',
        'invite',
        '--email',
        'tia@example.com',
        '--name',
        'Tia',
        '--smtp-url',
        sink.url,
        '--issuer',
        'http://127.0.0.1:4000',
      ],
      dir,
    );
    expect(named.code).toBe(0);
    expect((await sink.waitForMail('tia@example.com')).text).toContain('http://127.0.0.1:4000/password/set?');
  });
});
