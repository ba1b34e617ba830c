/**
 * The unit of output: one file of the bundle. Emitters return artifacts; only
 * `publish/` writes them. `path` is relative to the bundle root with forward slashes
 * and no leading slash (e.g. `agent-catalog.json`, `.well-known/api-catalog.json`);
 * `publicPath` is the URL path it is served at when that differs from `/${path}`
 * (e.g. `/agent-catalog`), which the hosting rules turn into a forced rewrite.
 */
export interface Artifact {
  path: string;
  mediaType: string;
  body: string;
  publicPath?: string;
  /**
   * `gzip`: the file on disk holds `body` as UTF-8, gzip-compressed (RFC 1952), as the
   * agent feeds' `.jsonl.gz` and `.csv.gz` shards are published. Everything before
   * `publish` (the gate included) reads `body`; every reader of a bundle on disk or on a
   * site decompresses the file first (`decodeBundleFile`).
   */
  encoding?: 'gzip';
  /**
   * The value a library serialised `body` from (JSON.stringify, fast-xml-parser's
   * XMLBuilder), with the body it became. The gate reads the value instead of parsing the
   * body back; a copy of the artifact whose body was changed afterwards no longer matches
   * `body` here, and is read from its text.
   */
  serialisedFrom?: { body: string; value: unknown };
}

export function artifactUrlPath(artifact: Pick<Artifact, 'path' | 'publicPath'>): string {
  return artifact.publicPath ?? `/${artifact.path}`;
}
