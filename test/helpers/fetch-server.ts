/**
 * Serves a web-standard `(request) => Response` handler on a loopback port, the way a
 * runtime shell would, so tests reach it over real HTTP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FetchServer {
  origin: string;
  close(): Promise<void>;
}

export async function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
): Promise<FetchServer> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await handler(request);
    const outgoing: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      outgoing[name] = value;
    });
    res.writeHead(response.status, outgoing);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
