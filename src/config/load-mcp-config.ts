// Reads and validates an MCP config file; the one function of src/config that touches the file system.
import { readFile } from "node:fs/promises";
import { ConfigError } from "./config-error.js";
import type { Env } from "./expand-variables.js";
import type { McpConfig } from "./mcp-config.js";
import { parseMcpConfig } from "./parse-mcp-config.js";

/** Rejects with a ConfigError when the file cannot be read or is not a valid config. */
export async function loadMcpConfig(path: string, env: Env): Promise<McpConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(path, "", `cannot read the file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const config = parseMcpConfig(text, path, env);
  if (config instanceof ConfigError) throw config;
  return config;
}
