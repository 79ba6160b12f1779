// The one error a config file produces: which file, where in it, and what is wrong. The CLI prints its
// message (`mcp.config.json:9:14: mcpServers.tickets.url: must be an http:// or https:// URL`) and exits 2.
import type { PathSegment } from "./json-reader.js";

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** Keys made of these print after a dot; any other key prints in brackets, quoted. */
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** `mcpServers.tickets.headers.Authorization`, `mcpServers["my.server"].args[0]`; the root is "". */
export function formatPath(segments: readonly PathSegment[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function formatMessage(file: string, path: string, detail: string, position: SourcePosition | undefined): string {
  const where = position === undefined ? file : `${file}:${position.line}:${position.column}`;
  return path === "" ? `${where}: ${detail}` : `${where}: ${path}: ${detail}`;
}

export class ConfigError extends Error {
  /**
   * @param file the config file as the user named it
   * @param path the place inside it (`mcpServers.tickets.url`), "" for the file as a whole
   * @param detail what is wrong, without the file or path
   * @param position where in the text, when the error belongs to one place in it
   */
  constructor(
    readonly file: string,
    readonly path: string,
    readonly detail: string,
    readonly position?: SourcePosition,
  ) {
    super(formatMessage(file, path, detail, position));
    this.name = "ConfigError";
  }
}
