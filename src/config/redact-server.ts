// A server config safe to show: header and env values, URL credentials and query values become `***`.
// Views print servers through this; nothing in src/config logs.
import type { McpServerConfig } from "./mcp-config.js";

export const REDACTED = "***";

function redactValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, REDACTED]));
}

/** Tokens also travel as `user:password@` or `?key=…`, often through `${VAR}`; a URL without them is kept verbatim. */
function redactUrl(text: string): string {
  const url = new URL(text);
  if (url.username === "" && url.password === "" && url.search === "") return text;
  if (url.username !== "") url.username = REDACTED;
  if (url.password !== "") url.password = REDACTED;
  for (const key of new Set(url.searchParams.keys())) url.searchParams.set(key, REDACTED);
  return url.toString();
}

export function redactServer(server: McpServerConfig): McpServerConfig {
  switch (server.transport) {
    case "stdio":
      return { ...server, env: redactValues(server.env) };
    case "http":
      return { ...server, url: redactUrl(server.url), headers: redactValues(server.headers) };
    default:
      return unreachable(server);
  }
}

function unreachable(server: never): never {
  throw new Error(`unhandled server ${JSON.stringify(server)}`);
}
