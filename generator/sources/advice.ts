/**
 * The second half of an upstream error message: what the person who ran the build can
 * change. A size refusal names the config key and its current value; a source that answers
 * a web page instead of JSON (a store's home page, the store-root example in
 * docs/content.md) names the product-list paths and the `--source-format` flag that read
 * them.
 */

/** Appended to every UPSTREAM_TOO_LARGE message. */
export function describeSizeFix(maxBytes: number): string {
  return `; if the store's catalog really is this large, raise upstream.max_response_bytes (now ${maxBytes}) in the config`;
}

const LOOKS_LIKE_HTML = /^\s*(?:<!doctype html|<html|<head|<body|<!--|<[a-z][^>]*>)/i;

export function looksLikeHtml(text: string): boolean {
  return LOOKS_LIKE_HTML.test(text.slice(0, 1024));
}

/** Appended to an UPSTREAM_SHAPE "not valid JSON" message; empty when the text is not a web page. */
export function describeNotJsonFix(source: string, text: string): string {
  if (!looksLikeHtml(text)) return '';
  let origin = '<store>';
  try {
    origin = new URL(source).origin;
  } catch {
    // A file: the advice names the paths to save instead.
  }
  return (
    `: it is an HTML page, not a product list. For a Shopify store use --source ${origin}/products.json --source-format shopify; ` +
    `for WooCommerce --source ${origin}/wp-json/wc/store/v1/products --source-format woocommerce ` +
    '(or set upstream.source and upstream.format in the config)'
  );
}
