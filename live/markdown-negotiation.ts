/**
 * Markdown negotiation for the live handler: on an HTML page's URL, a request whose
 * `Accept` prefers `text/markdown` to `text/html` gets the page's Markdown twin; any other
 * gets the HTML page. Pure: web-standard `Request`/`Response` only, so it runs on every
 * runtime the handler's shells adapt. `Accept` is read as RFC 9110 §12.5.1 defines it:
 * media ranges with weights, the most specific range that matches a type deciding its
 * weight ("media ranges can be overridden by more specific media ranges or specific media
 * types"), `q=0` meaning "not acceptable". A tie keeps HTML, the page's own form; a
 * missing `Accept` "implies that the user agent will accept any media type". Both forms
 * carry `Vary: Accept` (§12.5.5) so caches keep them apart, the Markdown form
 * `x-markdown-tokens` (an estimate for agents budgeting their context), and only a request
 * that accepts neither form gets 406.
 */

export const HTML = 'text/html';
export const MARKDOWN = 'text/markdown';
type Representation = typeof HTML | typeof MARKDOWN;

export interface MediaRange {
  type: string;
  subtype: string;
  /** The weight, 0 to 1. */
  q: number;
}

/** Parses an `Accept` value; malformed members are skipped, as a lenient server should. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const member of header.split(',')) {
    const [range = '', ...params] = member.split(';').map((part) => part.trim());
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\/([!#$%&'*+.^_`|~0-9A-Za-z-]+)$/.exec(range);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    let q = 1;
    for (const param of params) {
      const weight = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(param);
      if (weight?.[1] !== undefined) q = Number(weight[1]);
      else if (/^q\s*=/i.test(param)) q = Number.NaN;
    }
    if (Number.isNaN(q)) continue;
    ranges.push({ type: match[1].toLowerCase(), subtype: match[2].toLowerCase(), q });
  }
  return ranges;
}

/** The weight `Accept` gives one media type: that of the most specific matching range, 0 if none. */
export function qualityOf(ranges: readonly MediaRange[], mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity < 0 || (best !== undefined && best.specificity >= specificity)) continue;
    best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/** Which form of a page to send for an `Accept` value (null: header absent), or undefined for 406. */
export function choosePageForm(accept: string | null): Representation | undefined {
  if (accept === null || accept.trim() === '') return HTML;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return HTML;
  const html = qualityOf(ranges, HTML);
  const markdown = qualityOf(ranges, MARKDOWN);
  if (html === 0 && markdown === 0) return undefined;
  return markdown > html ? MARKDOWN : HTML;
}

/** A rough token count (about four characters a token for English text), as `x-markdown-tokens`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function withVary(response: Response): Response {
  const headers = new Headers(response.headers);
  const vary = headers.get('vary');
  if (!vary?.split(',').some((name) => name.trim().toLowerCase() === 'accept')) {
    headers.set('vary', vary ? `${vary}, Accept` : 'Accept');
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export interface PageForms {
  /** The Markdown twin's text. */
  markdown: string;
  /** The HTML page as the static host would serve it (headers included). */
  html: () => Promise<Response>;
  /** Headers both forms share (CORS, caching, usage policy), from the hosting rules. */
  headers?: HeadersInit;
}

/** Answers a GET or HEAD on an HTML page's URL with the form its `Accept` prefers. */
export async function negotiatePage(request: Request, forms: PageForms): Promise<Response> {
  const form = choosePageForm(request.headers.get('accept'));
  if (form === HTML) return withVary(await forms.html());
  const headers = new Headers(forms.headers);
  headers.set('vary', 'Accept');
  if (form === undefined) {
    headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response(
      request.method === 'HEAD' ? null : `not acceptable: this page is ${HTML} or ${MARKDOWN}\n`,
      {
        status: 406,
        headers,
      },
    );
  }
  headers.set('content-type', `${MARKDOWN}; charset=utf-8`);
  headers.set('x-markdown-tokens', String(estimateTokens(forms.markdown)));
  return new Response(request.method === 'HEAD' ? null : forms.markdown, { status: 200, headers });
}
