/**
 * The two ways mail leaves the issuer, checked against parts nobody here wrote: nodemailer
 * delivering to a real SMTP server on loopback over STARTTLS and over TLS from the start, and
 * the outbox's .eml file read back by mailparser, each with a text and an HTML part that name
 * the merchant.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import type { LogFields } from '../../auth-server/logger.js';
import { silentLogger } from '../../auth-server/logger.js';
import { createMailer } from '../../auth-server/mail/mailer.js';
import { loadMessages } from '../../auth-server/mail/messages.js';
import { loadMerchantIdentity } from '../../auth-server/merchant.js';
import { TEST_CATALOG_CONFIG } from './helpers/issuer.js';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.js';

const merchant = await loadMerchantIdentity(TEST_CATALOG_CONFIG, true);
const compose = loadMessages(merchant);
const LINK = 'http://127.0.0.1:4000/password/set?token=abc';

describe('mail transports', () => {
  const sinks: SmtpSink[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const sink of sinks) await sink.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  for (const tls of ['starttls', 'implicit'] as const) {
    it(`delivers over SMTP with ${tls === 'starttls' ? 'STARTTLS' : 'TLS from the start'}`, async () => {
      const sink = await startSmtpSink({ tls });
      sinks.push(sink);
      // smtp-server's own certificate is self-signed; smtp:// requires STARTTLS by itself.
      const query = '?tls.rejectUnauthorized=false';
      const mailer = createMailer({
        transport: 'smtp',
        smtpUrl: `${sink.url}/${query}`,
        from: '"Pomona Juice Co." <no-reply@localhost>',
        outboxDir: 'unused',
        logger: silentLogger,
      });
      await mailer.send(compose('reset', { to: 'ann@example.com', link: LINK, validFor: '30 minutes' }));
      mailer.close();
      const mail = await sink.waitForMail('ann@example.com');
      expect(mail.secure).toBe(true);
      expect(mail.text).toContain(LINK);
      expect(mail.html).toContain(merchant.name);
      expect(mail.from).toContain('Pomona Juice Co.');
    });
  }

  it('the outbox writes one .eml with a text and an HTML part and logs its path and link', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-auth-outbox-'));
    dirs.push(dir);
    const lines: LogFields[] = [];
    const logger = {
      ...silentLogger,
      info: (_message: string, fields?: LogFields) => void lines.push(fields ?? {}),
    };
    const mailer = createMailer({ transport: 'outbox', from: 'no-reply@localhost', outboxDir: dir, logger });
    await mailer.send(
      compose('invite', { to: 'ann@example.com', name: 'Ann', link: LINK, validFor: '7 days' }),
    );
    const [file] = await readdir(dir);
    const parsed = await simpleParser(await readFile(join(dir, file ?? '')));
    expect(parsed.text).toContain(LINK);
    expect(typeof parsed.html === 'string' && parsed.html.includes(merchant.name)).toBe(true);
    expect(lines).toEqual([{ file: join(dir, file ?? ''), link: LINK }]);
  });
});
