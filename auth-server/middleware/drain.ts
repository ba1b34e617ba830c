/**
 * Graceful shutdown. `closeGracefully` stops accepting connections, lets the requests in
 * flight finish, and closes each keep-alive connection as soon as it falls idle (Node keeps
 * an idle keep-alive socket open for its keepAliveTimeout otherwise, which would delay the
 * exit for no one's benefit); after `timeoutMs` whatever is left is cut. While the server is
 * closing, the middleware marks responses `Connection: close` so keep-alive clients move to
 * another instance, and `/healthz` reports `draining` so a load balancer stops routing here.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';

const IDLE_SWEEP_MS = 50;

/** True once the server that accepted this request has stopped listening (shutdown began). */
export function isServerClosing(req: { socket: Socket }): boolean {
  // net.Server sets `socket.server` on every accepted socket; Node's types omit it.
  const socket: Socket & { server?: unknown } = req.socket;
  const server = socket.server;
  return typeof server === 'object' && server !== null && 'listening' in server && server.listening === false;
}

export function createDrainMiddleware(): RequestHandler {
  return (req, res, next) => {
    if (isServerClosing(req)) res.setHeader('Connection', 'close');
    next();
  };
}

/** Resolves `'drained'` when every connection ended by itself, `'forced'` when the deadline cut some. */
export function closeGracefully(server: Server, timeoutMs: number): Promise<'drained' | 'forced'> {
  return new Promise((resolveClose) => {
    let outcome: 'drained' | 'forced' = 'drained';
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      outcome = 'forced';
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolveClose(outcome);
    });
    server.closeIdleConnections();
  });
}
