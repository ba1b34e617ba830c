/**
 * Which hosts the Netlify function answers for. It reads the bundle's own files over HTTP
 * from the origin the request names, so a request whose `Host` is someone else's would
 * make it fetch from that host (and, under `netlify dev`, from anywhere): it answers the
 * site's own host (`{site_url}`, written into the function by the generator), the site's
 * Netlify hostnames (`*.netlify.app`: deploy previews, branch deploys) and a loopback
 * host (a local run), and refuses any other with 421 before reading anything. The MCP
 * transport asks the same of local servers ("validate the Host … to prevent DNS
 * rebinding").
 */

const LOOPBACK_HOSTNAMES = new Set(['localhost', '[::1]']);
const NETLIFY_SUFFIX = '.netlify.app';

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

export function isTrustedHost(requestUrl: URL, siteOrigin: string | undefined): boolean {
  const { hostname } = requestUrl;
  if (isLoopback(hostname) || hostname.endsWith(NETLIFY_SUFFIX)) return true;
  return siteOrigin !== undefined && URL.canParse(siteOrigin) && new URL(siteOrigin).host === requestUrl.host;
}

/** RFC 9110 §15.5.20: this server will not answer authoritatively for that host. */
export function misdirected(siteOrigin: string | undefined): Response {
  const where = siteOrigin === undefined ? 'the site it was published for' : siteOrigin;
  return new Response(`421 Misdirected Request: this function answers for ${where} only\n`, {
    status: 421,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
