/**
 * The work of `customers invite` and `customers import`, kept out of cli.ts (which parses the
 * flags, prints and sets the exit status): open the merchant identity and the mail transport,
 * migrate the database, do the work, and close both whatever happens. Each returns the text
 * the CLI prints.
 */
import { ConfigError, type IssuerConfig } from './config.js';
import { formatImportReport, importCustomers } from './customer-import.js';
import { CustomerInputError } from './customers.js';
import { forTerminal } from './display-text.js';
import { inviteCustomer } from './invitations.js';
import type { Logger } from './logger.js';
import { type AccountMail, createAccountMail } from './mail/account-mail.js';
import { mailTransportOf } from './mail/mail-config.js';
import { withMigratedStore } from './migrated-store.js';
import type { Store } from './store/store.js';

/**
 * Over SMTP the links reach real customers, so the default issuer (http://127.0.0.1:<port>,
 * this machine) would send them to their own computers: it must be named on purpose.
 */
function checkLinkIssuer(config: IssuerConfig): void {
  if (mailTransportOf(config) === 'smtp' && config.issuerFromPort)
    throw new ConfigError(
      `mail goes to customers over SMTP, but no --issuer (AUTH_ISSUER) was given, so its links would open ${config.issuer} on their own machines: give --issuer with the issuer's public URL (name a loopback issuer with --issuer only on purpose)`,
    );
}

async function withAccountMail<T>(
  config: IssuerConfig,
  logger: Logger,
  work: (store: Store, mail: AccountMail) => Promise<T>,
): Promise<T> {
  checkLinkIssuer(config);
  const mail = await createAccountMail(config, logger);
  try {
    return await withMigratedStore(config, (store) => work(store, mail));
  } finally {
    mail.mailer.close();
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `customers invite`: refuses (status 2) an address that already has an account. */
export function runInvite(
  config: IssuerConfig,
  logger: Logger,
  input: { email: string; name: string },
): Promise<string> {
  return withAccountMail(config, logger, async (store, mail) => {
    const outcome = await inviteCustomer(store, mail, input, nowSeconds());
    if (outcome === 'exists')
      throw new CustomerInputError(`a customer with email ${input.email} already exists`);
    return `invited ${forTerminal(input.email)}\n`;
  });
}

/** `customers import`: the counts, then one line per skipped or rejected row. */
export function runImport(config: IssuerConfig, logger: Logger, file: string): Promise<string> {
  return withAccountMail(config, logger, async (store, mail) =>
    formatImportReport(await importCustomers(store, mail, file, nowSeconds())),
  );
}
