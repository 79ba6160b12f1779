// mcp.config.json (or the file given with --mcp-config) validated into a typed McpConfig, or the first
// ConfigError found. Pure: the text and the environment come in as arguments.
import { sanitizeAlias, toolPrefix } from "../mcp/index.js";
import { ConfigError, formatPath } from "./config-error.js";
import type { Env } from "./expand-variables.js";
import { readJson, type JsonReadError } from "./json-reader.js";
import { positionAt } from "./json-tokenizer.js";
import type { McpConfig } from "./mcp-config.js";
import { fail, readObject, rejectUnknownFields, requiredField, type JsonObjectNode, type ReadContext } from "./read-fields.js";
import { readServer } from "./read-server.js";

const ROOT_FIELDS = ["mcpServers"];

function readError(error: JsonReadError, context: ReadContext): ConfigError {
  const position = positionAt(context.text, error.offset);
  switch (error.kind) {
    case "syntax":
      return new ConfigError(context.file, "", `invalid JSON: ${error.message}`, position);
    case "duplicate-key": {
      const isAlias = error.path.length === 1 && error.path[0] === "mcpServers";
      const detail = isAlias
        ? `duplicate alias "${error.key}": two servers are written with the same name`
        : `duplicate key "${error.key}": it is written more than once`;
      return new ConfigError(context.file, formatPath([...error.path, error.key]), detail, position);
    }
    default:
      return unreachable(error);
  }
}

/** Aliases become tool-name prefixes; two that sanitise alike would make one server's tools ambiguous. */
function checkAliases(servers: JsonObjectNode, context: ReadContext): void {
  const aliasBySanitised = new Map<string, string>();
  for (const [alias, member] of servers.members) {
    const path = ["mcpServers", alias];
    if (alias === "") fail(context, path, member.keyOffset, "an alias must not be empty");
    const other = aliasBySanitised.get(sanitizeAlias(alias));
    if (other !== undefined) {
      const detail = `duplicate alias: "${other}" and "${alias}" both give the tool prefix ${toolPrefix(alias)}`;
      fail(context, path, member.keyOffset, detail);
    }
    aliasBySanitised.set(sanitizeAlias(alias), alias);
  }
}

function readConfig(context: ReadContext, root: JsonObjectNode): McpConfig {
  rejectUnknownFields(root, [], ROOT_FIELDS, context);
  const servers = readObject(requiredField(root, "mcpServers", [], context), ["mcpServers"], context);
  checkAliases(servers, context);
  return {
    file: context.file,
    servers: [...servers.members].map(([alias, member]) => readServer(alias, member.value, context)),
  };
}

export function parseMcpConfig(text: string, file: string, env: Env): McpConfig | ConfigError {
  const context: ReadContext = { file, text, env };
  const read = readJson(text);
  if (!read.ok) return readError(read.error, context);
  try {
    return readConfig(context, readObject(read.value, [], context));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`);
}
