/**
 * A loopback stand-in for the web server of an app that publishes a Client ID Metadata
 * Document: routes answer with whatever status, headers and body a test sets (slowly, if
 * asked), and every request it receives is counted, so a test can prove the issuer never
 * reached it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Milliseconds to wait before the body (after the headers). */
  delayBodyMs?: number;
}

export interface DocumentServer {
  origin: string;
  routes: Map<string, Route>;
  requests: string[];
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const route = routes.get(req.url ?? '');
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': 'application/json', ...route.headers });
    const finish = () => res.end(route.body ?? '');
    if (route.delayBodyMs) {
      res.flushHeaders();
      setTimeout(finish, route.delayBodyMs).unref();
    } else finish();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
