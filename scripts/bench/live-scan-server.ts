/**
 * `node lib/scripts/bench/live-scan-server.js <dir>`: the Node shell with the search
 * swapped for the linear scan (live-scan.ts), on a free loopback port; prints
 * `listening on <url>` like `serve`. Bench only.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createNodeLiveHandler, writeWebResponse } from '../../live/shells/node-http.js';
import { isScanSearch, scanSearch } from './live-scan.js';

const dir = process.argv[2] ?? 'dist';
const readAsset = (path: string) => readFile(join(dir, path), 'utf8').catch(() => undefined);
const readAssetBytes = (path: string) => readFile(join(dir, path)).catch(() => undefined);
const live = createNodeLiveHandler({ readAsset, readAssetBytes });

const server = createServer(async (req, res) => {
  if (req.method === 'POST' && req.url?.endsWith('/ucp/catalog/search')) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: 'POST',
      body: Buffer.concat(chunks).toString('utf8'),
    });
    if (isScanSearch(request)) return writeWebResponse(res, await scanSearch(request, readAsset), false);
  }
  if (!(await live(req, res))) res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address !== 'string')
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
