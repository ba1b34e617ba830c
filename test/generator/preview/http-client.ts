/**
 * A raw HTTP client for the preview tests: node:http with the request target sent
 * exactly as given (no normalisation of `..` or percent-encodings, unlike fetch), so
 * path-traversal attempts reach the server as an attacker would send them.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as the request body (a POST to a live path). */
  body?: string;
}

export function rawRequest(
  baseUrl: string,
  target: string,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${target}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** One header as a string (joined when repeated), or undefined. */
export function header(response: RawResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
