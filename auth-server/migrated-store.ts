/**
 * Opens the store, brings its schema up to date and runs one piece of work, closing the store
 * whatever happens: the shape of every one-shot command (`customers …`, `keys …`). A database
 * that cannot be reached fails with the same start-up message `serve` gives (the host and port,
 * never the password), not the driver's raw error.
 */
import type { IssuerConfig } from './config.js';
import { explainStartupError } from './startup-errors.js';
import type { Store } from './store/store.js';

export async function withMigratedStore<T>(
  config: IssuerConfig,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  // Loaded here, not at the top: the CLI's `--help` must not pay for the database drivers.
  const { openStore } = await import('./store/open-store.js');
  const store = openStore({ db: config.db });
  try {
    await store.migrate().catch((error: unknown) => {
      throw explainStartupError(error, config);
    });
    return await work(store);
  } finally {
    await store.close();
  }
}
