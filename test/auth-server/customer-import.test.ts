/**
 * `customers import` and `customers invite`: a Shopify-style and a WooCommerce-style export
 * with bad rows and duplicates, run twice (the second run creates and mails nothing), over
 * real SMTP on loopback; and the commands as a person runs them (the compiled CLI), with the
 * outbox default and the refusal to start an https issuer without SMTP.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../auth-server/config.js';
import { importCustomers } from '../../auth-server/customer-import.js';
import { silentLogger } from '../../auth-server/logger.js';
import { type AccountMail, createAccountMail } from '../../auth-server/mail/account-mail.js';
import { startTestIssuer, TEST_CATALOG_CONFIG, type TestIssuer } from './helpers/issuer.js';
import { ROOT, type RunResult, runCli } from './helpers/run-cli.js';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.js';

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'issuer', name);
const now = () => Math.floor(Date.now() / 1000);

describe('importing a store customer export', () => {
  let sink: SmtpSink;
  let issuer: TestIssuer;
  let mail: AccountMail;

  beforeAll(async () => {
    sink = await startSmtpSink();
    issuer = await startTestIssuer({ config: { smtpUrl: sink.url } });
    const config = resolveConfig({
      issuer: issuer.issuer,
      smtpUrl: sink.url,
      catalogConfig: TEST_CATALOG_CONFIG,
    });
    mail = await createAccountMail(config, silentLogger);
  });
  afterAll(async () => {
    mail.mailer.close();
    await issuer.close();
    await sink.close();
  });

  it('a Shopify export: creates and invites each new customer once, skips duplicates, rejects bad rows with reasons', async () => {
    const report = await importCustomers(issuer.store, mail, fixture('shopify-customers.csv'), now());
    expect(report.created).toBe(3);
    expect(report.skipped).toEqual([{ line: 7, email: 'omar@example.com', reason: expect.any(String) }]);
    expect(report.rejected.map((r) => r.line)).toEqual([5, 6]);
    expect(report.rejected[0]?.reason).toMatch(/email/);
    const customer = await issuer.store.findCustomerByEmail('omar@example.com');
    expect(customer?.name).toBe('Omar Okafor');
    expect((await issuer.store.findCustomerByEmail('lena@example.com'))?.name).toBe('Lena');
    await sink.waitForMail('lena@example.com');
    expect(sink.messages.filter((m) => m.to.includes('omar@example.com'))).toHaveLength(1);
    expect(sink.messages.map((m) => m.to).sort()).toEqual(
      ['lena@example.com', 'omar@example.com', 'pia.person@example.com'].sort(),
    );
  });

  it('running the same export again creates nothing and mails nobody', async () => {
    const mailed = sink.messages.length;
    const report = await importCustomers(issuer.store, mail, fixture('shopify-customers.csv'), now());
    expect(report.created).toBe(0);
    expect(report.skipped).toHaveLength(4);
    expect(report.rejected).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.length).toBe(mailed);
  });

  it('a WooCommerce export: billing_email stands in for email; existing accounts and case-only duplicates are skipped', async () => {
    const mailed = sink.messages.length;
    const report = await importCustomers(issuer.store, mail, fixture('woocommerce-customers.csv'), now());
    expect(report.created).toBe(2);
    expect(report.skipped.map((s) => [s.line, s.email])).toEqual([
      [5, 'ann@example.com'],
      [6, 'rosa@example.com'],
    ]);
    expect(report.rejected.map((r) => r.line)).toEqual([4]);
    expect((await issuer.store.findCustomerByEmail('sam.billing@example.com'))?.name).toBe('Sam Stone');
    await sink.waitForMail('sam.billing@example.com');
    expect(sink.messages.length).toBe(mailed + 2);
  });

  it('a file without an email column is refused as a whole, naming the file', async () => {
    await expect(importCustomers(issuer.store, mail, fixture('catalog.config.json'), now())).rejects.toThrow(
      /catalog\.config\.json/,
    );
  });
});

function run(args: string[], cwd: string): Promise<RunResult> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AUTH_') || name === 'PORT') delete env[name];
  return runCli(args, { cwd, env });
}

describe('the customers commands', () => {
  let dir: string;
  let sink: SmtpSink;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-auth-cli-'));
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('customers invite writes the message to data/outbox by default and logs its path and link', async () => {
    const result = await run(
      [
        'customers',
        'invite',
        '--email',
        'Olga@Example.com',
        '--name',
        'Olga',
        '--catalog-config',
        TEST_CATALOG_CONFIG,
      ],
      dir,
    );
    expect(result.code).toBe(0);
    const files = await readdir(join(dir, 'data', 'outbox'));
    expect(files).toHaveLength(1);
    const eml = await readFile(join(dir, 'data', 'outbox', files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/^To: olga@example\.com$/m);
    expect(eml).toContain('Pomona Juice Co.');
    const line = JSON.parse(result.stderr.trim().split('\n').at(-1) ?? '{}') as {
      file?: string;
      link?: string;
    };
    expect(line.file).toBe(join(dir, 'data', 'outbox', files[0] ?? ''));
    expect(line.link).toMatch(/^http:\/\/127\.0\.0\.1:4000\/password\/set\?token=[A-Za-z0-9_-]{43}$/);
    const again = await run(['customers', 'invite', '--email', 'olga@example.com', '--name', 'Olga'], dir);
    expect(again.code).toBe(2);
  });

  it('customers import over SMTP prints the counts and each skipped or rejected line', async () => {
    const args = ['customers', 'import', fixture('shopify-customers.csv'), '--smtp-url', sink.url];
    args.push('--issuer', 'http://127.0.0.1:4000');
    const result = await run([...args, '--catalog-config', TEST_CATALOG_CONFIG], dir);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('created 3, skipped 1, rejected 2');
    expect(result.stdout).toMatch(/^rejected line 5: /m);
    await sink.waitForMail('pia.person@example.com');
    const missing = await run(['customers', 'import', join(dir, 'nope.csv')], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.csv');
  });

  it('serve refuses an https issuer without SMTP unless --mail outbox says so', async () => {
    const refused = await run(['serve', '--port', '0', '--issuer', 'https://auth.example.test'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--smtp-url');
    expect(resolveConfig({ issuer: 'https://auth.example.test', mail: 'outbox' }).issuer).toBe(
      'https://auth.example.test',
    );
    const badConfig = await run(['serve', '--port', '0', '--catalog-config', join(dir, 'missing.json')], dir);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain('missing.json');
  });
});
