// MCP Apps (https://github.com/modelcontextprotocol/ext-apps, SEP-1865): a server's interactive views, HTML
// served as `ui://` resources for a host to render beside the conversation, and the tools those views call.
// mca renders no views: it keeps the tools meant only for a view away from the model, and lists the views as
// what they are.

/** What mca says of a view wherever it lists one. */
export const APP_VIEW_NOTE = "an MCP App view: it needs a host that renders MCP Apps, which mca does not";

/** The view's media type, `text/html;profile=mcp-app`. */
const APP_MIME_TYPE = /^text\/html\s*;\s*profile\s*=\s*"?mcp-app"?\s*$/iu;

/** A listed resource that is an app's view: a `ui://` URI, or the view's media type. */
export function isAppResource(entry: { readonly uri: string; readonly mimeType?: string }): boolean {
  return entry.uri.toLowerCase().startsWith("ui://") || (entry.mimeType !== undefined && APP_MIME_TYPE.test(entry.mimeType));
}

/**
 * `_meta.ui.visibility` names who may call a tool, `"model"` and/or `"app"` (the view). Left out or empty, both
 * may; a list without `"model"` keeps the tool from the model: the host, not the server, is the one to hold it back.
 */
export function isAppOnly(info: { readonly _meta?: { readonly [key: string]: unknown } }): boolean {
  const ui = info._meta?.ui;
  if (typeof ui !== "object" || ui === null || !("visibility" in ui) || !Array.isArray(ui.visibility) || ui.visibility.length === 0) return false;
  return !ui.visibility.includes("model");
}
