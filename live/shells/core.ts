/**
 * The one door from the runtime shells to the live handler's pure core: every shell
 * imports `handleLiveRequest` and builds its `LiveContext` here, so a change in the core's
 * interface touches this file and no shell.
 *
 * STAND-IN until issue-20a's core is merged: answers every live path with 501.
 */
export interface LiveContext {
  /** A file of the published bundle by its URL path (`/live/index.json`), or undefined when it is not there. */
  readAsset(path: string): Promise<string | undefined>;
}

export async function handleLiveRequest(
  request: Request,
  context: LiveContext,
): Promise<Response | undefined> {
  const { pathname } = new URL(request.url);
  if (!/\/(mcp|ucp\/catalog\/[a-z]+)$/.test(pathname)) return undefined;
  const catalog = await context.readAsset('/agent-catalog.json');
  return Response.json({ standIn: true, catalogBytes: catalog?.length ?? 0 }, { status: 501 });
}

/** The context every shell hands the core: only how to read a published file differs per host. */
export function createLiveContext(readAsset: LiveContext['readAsset']): LiveContext {
  return { readAsset };
}
