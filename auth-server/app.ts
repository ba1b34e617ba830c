/**
 * Builds the issuer's Express app from its parts and never listens (server.ts does).
 * One router per endpoint family; one error middleware at the end turns every failure
 * into `{ error, error_description }` (or the HTML error page for browser-facing routes).
 */
import express from 'express';
import { createClientDocumentResolver } from './client-id-document/resolve-client.js';
import type { IssuerConfig } from './config.js';
import type { IssuerContext } from './context.js';
import { createErrorMiddleware, notFoundHandler } from './errors.js';
import type { Clock, KeyRing } from './key-ring.js';
import type { Logger } from './logger.js';
import type { AccountMail } from './mail/account-mail.js';
import { installProductionMiddleware, renderFor } from './middleware/production.js';
import { createAccountRouter } from './routes/account.js';
import { createAccountControlsRouter } from './routes/account-controls.js';
import { createAuthorizeRouter } from './routes/authorize.js';
import { createJwksRouter } from './routes/jwks.js';
import { createMetadataRouter } from './routes/metadata.js';
import { createPasswordRouter } from './routes/password.js';
import { createRegisterRouter } from './routes/register.js';
import { createRevokeRouter } from './routes/revoke.js';
import { createSessionRouter } from './routes/session.js';
import { createTokenRouter } from './routes/token.js';
import { createUserinfoRouter } from './routes/userinfo.js';
import { type RequestListener, withStaticDocuments } from './static-documents.js';
import type { Store } from './store/store.js';
import { loadViews, type Views } from './views.js';

/** The heading of every error page. */
const cannotComplete = (merchant: string) => `This request to ${merchant} cannot be completed`;

export interface CreateAppOptions {
  config: IssuerConfig;
  store: Store;
  keys: KeyRing;
  logger: Logger;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock?: Clock;
  views?: Views;
  mail: AccountMail;
  /** Serve the fixed documents through Express too (false), as the equivalence test compares. */
  staticDocuments?: boolean;
}

/** The issuer's request listener: Express, behind the fast path for the fixed documents. */
export function createApp(options: CreateAppOptions): RequestListener {
  const clock = options.clock ?? Date.now;
  const ctx: IssuerContext = {
    config: options.config,
    store: options.store,
    keys: options.keys,
    logger: options.logger,
    views: options.views ?? loadViews(undefined, options.mail.merchant, options.config.allowSignup),
    clock,
    mail: options.mail,
    clientDocuments: createClientDocumentResolver({
      store: options.store,
      clock,
      allowLoopback: options.config.allowLoopbackClientMetadata,
    }),
  };
  const app = express();
  app.disable('x-powered-by');
  // The issuer identifier comes from config, never from Host or X-Forwarded-* headers.
  app.set('trust proxy', false);
  app.set('etag', false);
  installProductionMiddleware(app, ctx);

  app.use(createMetadataRouter(ctx));
  app.use(createJwksRouter(ctx));
  app.use(createRegisterRouter(ctx));
  app.use(createAuthorizeRouter(ctx));
  app.use(createSessionRouter(ctx));
  app.use(createTokenRouter(ctx));
  app.use(createRevokeRouter(ctx));
  app.use(createUserinfoRouter(ctx));
  app.use(createAccountRouter(ctx));
  app.use(createAccountControlsRouter(ctx));
  app.use(createPasswordRouter(ctx));
  app.use(notFoundHandler);
  app.use(
    createErrorMiddleware(
      ctx.logger,
      (res, { status, error, description }) =>
        ctx.views.sendMessage(res, status, cannotComplete, description, { code: error }),
      renderFor,
    ),
  );
  return options.staticDocuments === false ? app : withStaticDocuments(ctx, app);
}
