/** The search index in a bundle is missing, cut short, corrupt or of another format: the bundle is broken, not the request. */
export class SearchIndexError extends Error {
  override readonly name = 'SearchIndexError';
}
