/**
 * The mailed links and the forms that send them, refused where they must be: an expired
 * link, a reused one, one for a deleted account, a forged token; the forgot-password form
 * answers the same for unknown addresses (status and body, and without waiting for the mail,
 * so no timing tells them apart); its throttle; the password rules; sign-up that cannot
 * sign in before the address is verified. Over real SMTP on loopback, on both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addCustomer } from '../../auth-server/customers.js';
import { describeEachDatabase, POSTGRES_SKIP_REASON, POSTGRES_URL } from './helpers/databases.js';
import { FormAgent, type Page, parseForms } from './helpers/form-agent.js';
import { createMovableClock, type MovableClock, startTestIssuer, type TestIssuer } from './helpers/issuer.js';
import { linkIn, type SmtpSink, startSmtpSink } from './helpers/smtp-sink.js';

const errorCode = (page: Page) => /Error code: ([a-z_]+)/.exec(page.html)?.[1];

describeEachDatabase('mailed links on %s', (kind) => {
  const skip = kind === 'postgres' && !POSTGRES_URL;
  const note = skip ? ` (${POSTGRES_SKIP_REASON})` : '';
  let sink: SmtpSink;
  let issuer: TestIssuer;
  let clock: MovableClock;
  let origin: string;

  beforeAll(async () => {
    if (skip) return;
    // A slow mail server: the forgot form must answer before the mail is accepted.
    sink = await startSmtpSink({ delayMs: 400 });
    clock = createMovableClock();
    issuer = await startTestIssuer({
      kind,
      clock: clock.now,
      config: { smtpUrl: sink.url, allowSignup: true },
    });
    origin = new URL(issuer.issuer).origin;
  });
  afterAll(async () => {
    if (skip) return;
    await issuer.close();
    await sink.close();
  });

  /** Asks for a reset link for `email` from a fresh browser; returns the answer page. */
  async function forgot(email: string, agent = new FormAgent(origin)): Promise<Page> {
    const form = await agent.get('/password/forgot');
    return agent.submit(form, 'Send link', { Email: email });
  }

  async function resetLinkFor(email: string, seen: number): Promise<string> {
    await forgot(email);
    return linkIn(await sink.waitForMail(email, seen), `${issuer.issuer}/password/set?`);
  }

  async function setPassword(agent: FormAgent, link: string, password: string): Promise<Page> {
    const page = await agent.get(link);
    if (page.status !== 200) return page;
    return agent.submit(page, 'Set password', { 'New password': password });
  }

  it.skipIf(skip)(
    `unknown and known addresses get the same answer, sent before any mail${note}`,
    async () => {
      const before = sink.messages.length;
      const known = await forgot(issuer.customer.email);
      const unknown = await forgot('nobody@example.com');
      expect(sink.messages.length).toBe(before);
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(known.status);
      expect(unknown.html).toBe(known.html);
      await sink.waitForMail(issuer.customer.email);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(sink.messages.filter((m) => m.to.includes('nobody@'))).toEqual([]);
    },
  );

  it.skipIf(skip)(`a link works once; a reused link is refused${note}`, async () => {
    const link = await resetLinkFor(issuer.customer.email, 1);
    const agent = new FormAgent(origin);
    expect((await setPassword(agent, link, 'a brand new passphrase')).status).toBe(200);
    const again = await setPassword(new FormAgent(origin), link, 'another new passphrase');
    expect(again.status).toBe(400);
    expect(errorCode(again)).toBe('invalid_link');
    issuer.customer.password = 'a brand new passphrase';
  });

  it.skipIf(skip)(`a link older than 30 minutes is refused, and a younger one works${note}`, async () => {
    const link = await resetLinkFor(issuer.customer.email, 2);
    clock.advance(29 * 60);
    expect((await new FormAgent(origin).get(link)).status).toBe(200);
    clock.advance(2 * 60);
    const expired = await setPassword(new FormAgent(origin), link, 'too late passphrase');
    expect(expired.status).toBe(400);
    expect(errorCode(expired)).toBe('invalid_link');
  });

  it.skipIf(skip)(`a forged or malformed token is refused without a server error${note}`, async () => {
    const agent = new FormAgent(origin);
    for (const token of ['A'.repeat(43), 'short', `${'x'.repeat(2000)}`, '']) {
      const page = await agent.get(`/password/set?token=${encodeURIComponent(token)}`);
      expect(page.status).toBe(400);
      expect(errorCode(page)).toBe('invalid_link');
    }
  });

  it.skipIf(skip)(
    `the password rules refuse short, long and common passwords and keep the link${note}`,
    async () => {
      clock.advance(24 * 3600);
      const link = await resetLinkFor(issuer.customer.email, 3);
      const agent = new FormAgent(origin);
      for (const weak of ['short', 'x'.repeat(129), 'password1', 'QWERTYUIOP']) {
        const refused = await setPassword(agent, link, weak);
        expect(refused.status).toBe(400);
        expect(parseForms(refused.html).some((f) => f.buttons.some((b) => b.text === 'Set password'))).toBe(
          true,
        );
      }
      // Any characters, no composition rules: spaces and emoji are fine, and 128 is allowed.
      expect((await setPassword(agent, link, 'jus de pomme 🍎 froid')).status).toBe(200);
      issuer.customer.password = 'jus de pomme 🍎 froid';
    },
  );

  it.skipIf(skip)(`a link for a deleted account is refused${note}`, async () => {
    const link = await resetLinkFor(issuer.customer.email, 4);
    await issuer.store.emailLinks.deleteCustomer(issuer.customer.id, Math.floor(clock.now() / 1000));
    const page = await new FormAgent(origin).get(link);
    expect(page.status).toBe(400);
    expect(errorCode(page)).toBe('invalid_link');
  });

  it.skipIf(skip)(`past 3 requests in 15 minutes an address is throttled, known or not${note}`, async () => {
    clock.advance(24 * 3600);
    for (const email of ['ann@example.com', 'nobody-else@example.com']) {
      for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(200);
      const throttled = await forgot(email);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it.skipIf(skip)(
    `the forgot and sign-up forms share one mail budget, so alternating them sends no more${note}`,
    async () => {
      clock.advance(24 * 3600);
      for (let i = 0; i < 3; i++) expect((await forgot(issuer.customer.email)).status).toBe(200);
      // Sign-up mails this address too (a reset link when the account exists): same budget.
      const agent = new FormAgent(origin);
      const signup = await agent.submit(await agent.get('/signup'), 'Send link', {
        'Your name': 'Ann Again',
        Email: issuer.customer.email,
      });
      expect(signup.status).toBe(429);
    },
  );

  it.skipIf(skip)(
    `a signed-up account cannot sign in until its address is verified by the link${note}`,
    async () => {
      const agent = new FormAgent(origin);
      const form = await agent.get('/signup');
      const sent = await agent.submit(form, 'Send link', {
        'Your name': 'Sid Signup',
        Email: 'sid@example.com',
      });
      expect(sent.status).toBe(200);
      const tryPassword = async (password: string) => {
        const page = await agent.get('/account');
        return agent.submit(page, 'Sign in', { Email: 'sid@example.com', Password: password });
      };
      expect((await tryPassword('')).status).toBe(401);
      const mail = await sink.waitForMail('sid@example.com');
      const customer = await issuer.store.findCustomerByEmail('sid@example.com');
      expect(customer?.emailVerifiedAt ?? null).toBeNull();
      expect(
        (await setPassword(agent, linkIn(mail, `${issuer.issuer}/password/set?`), 'sid signs up today'))
          .status,
      ).toBe(200);
      expect((await issuer.store.findCustomerByEmail('sid@example.com'))?.emailVerifiedAt).toBeTypeOf(
        'number',
      );
      expect((await tryPassword('sid signs up today')).status).toBe(303);
    },
  );

  it.skipIf(skip)(
    `sign-up and forgot refuse anything but one address: no list, no display name reaches a mail${note}`,
    async () => {
      clock.advance(24 * 3600);
      const before = sink.messages.length;
      const hostile = [
        'mallory@evil.test, victim@example.com',
        'ann@example.com <mallory@evil.test>',
        'not-an-address',
      ];
      for (const email of hostile) {
        const agent = new FormAgent(origin);
        const signup = await agent.submit(await agent.get('/signup'), 'Send link', {
          'Your name': 'Mallory',
          Email: email,
        });
        expect(signup.status).toBe(400);
        expect((await forgot(email)).status).toBe(400);
        expect(await issuer.store.findCustomerByEmail(email.toLowerCase())).toBeUndefined();
      }
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(sink.messages.length).toBe(before);
    },
  );

  it.skipIf(skip)(`changing the password kills a reset link already in the mailbox${note}`, async () => {
    clock.advance(24 * 3600);
    // The shared customer was deleted by an earlier case: this one has its own account.
    const email = 'cora@example.com';
    await addCustomer(
      issuer.store,
      { email, name: 'Cora Change', password: 'cora picks a password' },
      Math.floor(clock.now() / 1000),
    );
    const seen = sink.messages.filter((m) => m.to.includes(email)).length;
    expect((await forgot(email)).status).toBe(200);
    const link = linkIn(await sink.waitForMail(email, seen), `${issuer.issuer}/password/set?`);
    const customer = await issuer.store.findCustomerByEmail(email);
    if (!customer) throw new Error('the test customer is missing');
    await issuer.store.emailLinks.changePassword(
      customer.id,
      customer.passwordHash,
      'no-session-to-keep',
      Math.floor(clock.now() / 1000),
    );
    expect((await setPassword(new FormAgent(origin), link, 'a password set by a stale link')).status).toBe(
      400,
    );
  });
});
