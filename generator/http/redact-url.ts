/**
 * The form of an upstream URL that may appear in messages, logs and the `--json` summary.
 * A store URL can carry credentials (`https://key:secret@shop…`, `?consumer_secret=…`,
 * `?access_token=…`); those never leave the process. Anything that is not an absolute
 * URL (a file path) is returned as given.
 */

const SECRET_PARAM = /key|token|secret|password|passwd|signature|sig$|auth|credential/i;
const REDACTED = 'redacted';

export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return text;
  if (url.username !== '') url.username = REDACTED;
  if (url.password !== '') url.password = REDACTED;
  for (const name of new Set(url.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) url.searchParams.set(name, REDACTED);
  }
  return url.href;
}
