/**
 * What every route module receives: the resolved config, the store, the key ring, the
 * logger, the page renderer and the clock (milliseconds; tests inject their own to move
 * time). `nowSeconds` is the one conversion to the Unix seconds the store and JWTs use.
 */
import type { ClientDocumentResolver } from './client-id-document/resolve-client.js';
import type { IssuerConfig } from './config.js';
import { type Clock, type KeyRing, unixSeconds } from './key-ring.js';
import type { Logger } from './logger.js';
import type { AccountMail } from './mail/account-mail.js';
import type { Store } from './store/store.js';
import type { Views } from './views.js';

export interface IssuerContext {
  config: IssuerConfig;
  store: Store;
  keys: KeyRing;
  logger: Logger;
  views: Views;
  clock: Clock;
  /** The merchant's identity and the mail transport (account links, notices). */
  mail: AccountMail;
  /** Clients identified by a Client ID Metadata Document URL. */
  clientDocuments: ClientDocumentResolver;
}

export function nowSeconds(ctx: Pick<IssuerContext, 'clock'>): number {
  return unixSeconds(ctx.clock);
}
