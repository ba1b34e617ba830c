/**
 * Finding 1 of issue 23: mail never falls back to clear text. A loopback SMTP server that
 * offers no STARTTLS (as when something on the path strips it) and would take a password in
 * clear: with `smtp://user:pass@…` nothing is sent to it, no AUTH and no message, whether the
 * mail comes from the library, `customers invite` or `customers import`. Plain SMTP is only
 * for a loopback relay named on purpose (`smtp+insecure://`), and refused for any other host
 * at start-up, naming the setting.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../auth-server/config.js';
import { silentLogger } from '../../auth-server/logger.js';
import { createMailer } from '../../auth-server/mail/mailer.js';
import { loadMessages } from '../../auth-server/mail/messages.js';
import { loadMerchantIdentity } from '../../auth-server/merchant.js';
import { TEST_CATALOG_CONFIG } from './helpers/issuer.js';
import { type RunResult, runCli } from './helpers/run-cli.js';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.js';

const compose = loadMessages(await loadMerchantIdentity(TEST_CATALOG_CONFIG, true));
const LINK = 'http://127.0.0.1:4000/password/set?token=abc';

function run(args: string[], cwd: string): Promise<RunResult> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AUTH_') || name === 'PORT') delete env[name];
  // --issuer named, so the SMTP refusal of a default loopback issuer (finding 9) does not stop it first.
  return runCli([...args, '--catalog-config', TEST_CATALOG_CONFIG, '--issuer', 'http://127.0.0.1:4000'], {
    cwd,
    env,
  });
}

describe('SMTP without TLS', () => {
  let sink: SmtpSink;
  let dir: string;
  let withPassword: string;
  beforeAll(async () => {
    sink = await startSmtpSink({ tls: 'none' });
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-tls-'));
    withPassword = `smtp://relay-user:relay-secret@127.0.0.1:${sink.port}`;
  });
  afterAll(async () => {
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('smtp:// requires STARTTLS: a server without it gets no AUTH and no message', async () => {
    const mailer = createMailer({
      transport: 'smtp',
      smtpUrl: withPassword,
      from: 'no-reply@localhost',
      outboxDir: 'unused',
      logger: silentLogger,
    });
    const message = compose('reset', { to: 'ann@example.com', link: LINK, validFor: '30 minutes' });
    await expect(mailer.send(message)).rejects.toThrow(/STARTTLS|TLS/i);
    mailer.close();
    expect(sink.auths).toEqual([]);
    expect(sink.messages).toEqual([]);
  });

  it('customers invite and customers import send nothing in clear either (status 1)', async () => {
    const invite = await run(
      ['customers', 'invite', '--email', 'ida@example.com', '--name', 'Ida', '--smtp-url', withPassword],
      dir,
    );
    const csv = join(dir, 'customers.csv');
    await writeFile(csv, 'Email,First Name\njo@example.com,Jo\n');
    const imported = await run(['customers', 'import', csv, '--smtp-url', withPassword], dir);
    for (const result of [invite, imported]) {
      expect(result.stdout + result.stderr).not.toContain('relay-secret');
      expect(result.stderr + result.stdout).toMatch(/STARTTLS|TLS/i);
    }
    expect(invite.code).toBe(1);
    expect(imported.stdout).toMatch(/^created 0, skipped 0, rejected 1$/m);
    expect(sink.auths).toEqual([]);
    expect(sink.messages).toEqual([]);
  }, 30_000);

  it('plain SMTP to a loopback relay works when named explicitly: smtp+insecure://', async () => {
    const mailer = createMailer({
      transport: 'smtp',
      smtpUrl: sink.url,
      from: 'no-reply@localhost',
      outboxDir: 'unused',
      logger: silentLogger,
    });
    expect(sink.url).toMatch(/^smtp\+insecure:\/\/127\.0\.0\.1:/);
    await mailer.send(compose('reset', { to: 'bo@example.com', link: LINK, validFor: '30 minutes' }));
    mailer.close();
    expect((await sink.waitForMail('bo@example.com')).secure).toBe(false);
  });

  it('plain SMTP to any other host, or a URL that turns STARTTLS off, is refused at start-up naming --smtp-url', async () => {
    for (const smtpUrl of [
      'smtp+insecure://relay.example.test:25',
      'smtp+insecure://10.0.0.5:25',
      `smtp://127.0.0.1:${sink.port}/?requireTLS=false`,
      `smtp://127.0.0.1:${sink.port}/?ignoreTLS=true`,
      'smtp://relay.example.test:587/?tls.rejectUnauthorized=false',
    ]) {
      expect(() => resolveConfig({ smtpUrl })).toThrow(ConfigError);
      expect(() => resolveConfig({ smtpUrl })).toThrow(/--smtp-url \(AUTH_SMTP_URL\)/);
    }
    // The mailer refuses them too, however it was reached.
    const mailerOf = (smtpUrl: string) => () =>
      createMailer({
        transport: 'smtp',
        smtpUrl,
        from: 'a@localhost',
        outboxDir: 'unused',
        logger: silentLogger,
      });
    expect(mailerOf(`smtp://127.0.0.1:${sink.port}/?requireTLS=false`)).toThrow(TypeError);
    expect(mailerOf('smtp+insecure://relay.example.test:25')).toThrow(TypeError);
    for (const smtpUrl of ['smtp+insecure://localhost:25', 'smtp+insecure://[::1]:25'])
      expect(resolveConfig({ smtpUrl }).smtpUrl).toBe(smtpUrl);
    const serve = await run(
      ['serve', '--port', '0', '--smtp-url', 'smtp+insecure://relay.example.test'],
      dir,
    );
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--smtp-url');
    expect(serve.stderr).toContain('smtp+insecure://');
  });
});
