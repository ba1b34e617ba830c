/**
 * Runs the issuer: opens the store, migrates, seals the private keys (or refuses to start
 * without the key-encryption key, key-protection.ts), makes sure signing keys exist, binds the
 * socket, builds the app (once the port is known, so `--port 0` still yields a correct
 * default issuer) and starts the periodic clean-up. The CLI prints `listening on <url>`
 * when this resolves; `close()` stops accepting, finishes in-flight requests and closes
 * the store.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpEndpointOf } from '../access-token/resource-urls.js';
import { createApp } from './app.js';
import { startCleanup } from './cleanup.js';
import { bindIssuerToPort, bindServedResources, type IssuerConfig } from './config.js';
import { loadKeyEncryptionKey, protectSigningKeys } from './key-protection.js';
import type { Clock } from './key-ring.js';
import { createKeyRing, ensureSigningKeys } from './keys.js';
import type { Logger } from './logger.js';
import { createAccountMail, loadIssuerMerchant } from './mail/account-mail.js';
import { closeGracefully } from './middleware/drain.js';
import { startReaper } from './reaper.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';

// How long a shutdown waits for requests in flight before it cuts their connections.
const SHUTDOWN_TIMEOUT_MS = 10_000;

export interface RunningIssuer {
  /** The URL the socket is bound to. */
  url: string;
  /** The issuer identifier in effect. */
  issuer: string;
  server: Server;
  store: Store;
  close(): Promise<void>;
}

export interface StartIssuerOptions {
  config: IssuerConfig;
  logger: Logger;
  /** Use this store instead of opening `config.db` (tests); it is not closed by `close()`. */
  store?: Store;
  clock?: Clock;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no TCP address'));
      else resolveListen(address);
    });
  });
}

export async function startIssuer(options: StartIssuerOptions): Promise<RunningIssuer> {
  const { logger } = options;
  const clock = options.clock ?? Date.now;
  // The merchant first: a wrong --catalog-config is refused before any database file, key or
  // port is touched.
  const merchant = await loadIssuerMerchant(options.config);
  const kek = await loadKeyEncryptionKey(options.config);
  const store = options.store ?? openStore({ db: options.config.db });
  try {
    await store.migrate();
    await protectSigningKeys(store, { kek, requireEncryption: options.config.secureCookies, logger });
    await ensureSigningKeys(store, clock, kek);
  } catch (error) {
    if (!options.store) await store.close();
    throw error;
  }

  const server = createServer();
  const address = await listen(server, options.config.port, options.config.host);
  const mcpEndpoint =
    merchant.catalogBaseUrl === undefined ? undefined : mcpEndpointOf(merchant.catalogBaseUrl);
  const config = bindServedResources(bindIssuerToPort(options.config, address.port), mcpEndpoint);
  const keys = createKeyRing(store, config, clock, kek);
  const mail = await createAccountMail(config, logger, merchant).catch(async (error: unknown) => {
    server.close();
    if (!options.store) await store.close();
    throw error;
  });
  server.on('request', createApp({ config, store, keys, logger, clock, mail }));
  const stopCleanup = startCleanup({ store, logger, clock, intervalSeconds: config.cleanupInterval });
  const stopReaper = startReaper({
    store,
    logger,
    clock,
    intervalSeconds: config.cleanupInterval,
    unusedClientDays: config.unusedClientDays,
  });

  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    issuer: config.issuer,
    server,
    store,
    async close() {
      stopCleanup();
      stopReaper();
      mail.mailer.close();
      await closeGracefully(server, SHUTDOWN_TIMEOUT_MS);
      if (!options.store) await store.close();
    },
  };
}
