// The servers other hosts have configured, for `mca mcp import`: each host's files (the user's, per operating
// system, and the project's), each entry as mca's own file would hold it. Spellings mca's reader takes as
// they are (`httpUrl`, `serverUrl`, `${env:NAME}`, `disabled`, `includeTools`, `disabled_tools`, …) are kept
// as written (the editors' `${workspaceFolder}` and kin too), so a limit on a server's tools is carried over,
// never dropped; what mca never writes down (VS Code's inputs) or never applies (what lets tools run without
// asking) is named here.
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ConfigError, projectKey, readConfigText, type Env } from "./config-reader.js";
import { keysAt, parseEditable, toJsonValue, valueAt, type JsonValue } from "./jsonc-edit.js";

export const HOST_NAMES = ["claude-code", "claude-desktop", "cursor", "vscode", "gemini", "codex", "windsurf"] as const;
export type HostName = (typeof HOST_NAMES)[number];

/** Where the import runs: the project, the user's home and environment, and the operating system. */
export interface HostWhere {
  readonly projectDir: string;
  readonly home: string;
  readonly env: Env;
  readonly platform: NodeJS.Platform;
}

/** One server found, as mca's file would hold it; `notes` say what of it was not carried over, and why. */
export interface HostServer {
  readonly alias: string;
  readonly file: string;
  readonly entry: JsonValue;
  readonly notes: readonly string[];
}

export interface HostSkipped {
  readonly alias: string;
  readonly file: string;
  readonly reason: string;
}

export interface HostServers {
  /** Every file looked for, and those found. */
  readonly searched: readonly string[];
  readonly found: readonly string[];
  readonly servers: readonly HostServer[];
  readonly skipped: readonly HostSkipped[];
  /** Files found that could not be read. */
  readonly problems: readonly ConfigError[];
}

type Shape = "mcpServers" | "claude-json" | "vscode" | "codex" | "gemini";

export interface HostFile {
  readonly path: string;
  readonly shape: Shape;
}

/** The folder desktop applications keep their settings in, per operating system. */
function appData(where: HostWhere): string {
  const { env, home } = where;
  if (where.platform === "darwin") return join(home, "Library", "Application Support");
  if (where.platform === "win32") return env.APPDATA ?? join(home, "AppData", "Roaming");
  return env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(home, ".config");
}

/** Each host's file in the project, where it keeps one, as each host's documentation places it. */
const PROJECT_FILES: Readonly<Partial<Record<HostName, { readonly path: readonly string[]; readonly shape: Shape }>>> = {
  "claude-code": { path: [".mcp.json"], shape: "mcpServers" },
  cursor: { path: [".cursor", "mcp.json"], shape: "mcpServers" },
  vscode: { path: [".vscode", "mcp.json"], shape: "vscode" },
  gemini: { path: [".gemini", "settings.json"], shape: "gemini" },
  codex: { path: [".codex", "config.toml"], shape: "codex" },
};

/** A host's file in the project, and the host it belongs to. */
export interface ProjectHostFile extends HostFile {
  readonly host: HostName;
}

/** Every host's file in the project, in HOST_NAMES' order. */
export function projectHostFiles(projectDir: string): ProjectHostFile[] {
  return HOST_NAMES.flatMap((host) => {
    const file = PROJECT_FILES[host];
    return file === undefined ? [] : [{ host, path: join(projectDir, ...file.path), shape: file.shape }];
  });
}

/** The user's files of each host, as each host's documentation places them. */
function userFiles(host: HostName, where: HostWhere): HostFile[] {
  const { home, env } = where;
  switch (host) {
    case "claude-code":
      return [{ path: join(env.CLAUDE_CONFIG_DIR ?? home, ".claude.json"), shape: "claude-json" }];
    case "claude-desktop":
      return [{ path: join(appData(where), "Claude", "claude_desktop_config.json"), shape: "mcpServers" }];
    case "cursor":
      return [{ path: join(home, ".cursor", "mcp.json"), shape: "mcpServers" }];
    case "vscode":
      return [{ path: join(appData(where), "Code", "User", "mcp.json"), shape: "vscode" }];
    case "gemini":
      return [{ path: join(home, ".gemini", "settings.json"), shape: "gemini" }];
    case "codex":
      return [{ path: join(env.CODEX_HOME ?? join(home, ".codex"), "config.toml"), shape: "codex" }];
    case "windsurf":
      return [{ path: join(home, ".codeium", "windsurf", "mcp_config.json"), shape: "mcpServers" }];
    default: {
      const unknown: never = host;
      throw new Error(`unknown host ${String(unknown)}`);
    }
  }
}

/** Each host's files, project first (it is the narrower). */
function hostFiles(host: HostName, where: HostWhere): HostFile[] {
  const project = PROJECT_FILES[host];
  return [...(project === undefined ? [] : [{ path: join(where.projectDir, ...project.path), shape: project.shape }]), ...userFiles(host, where)];
}

type JsonObject = { readonly [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The raw entries of one file, by alias, in its order. */
function rawEntries(file: HostFile, text: string, projectDir: string): [string, JsonValue][] | ConfigError {
  if (file.shape === "codex") {
    let table: unknown;
    try {
      table = parseToml(text);
    } catch (error) {
      return new ConfigError(file.path, "", `not valid TOML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }
    const servers = toJsonValue(table);
    const section = isObject(servers) ? servers.mcp_servers : undefined;
    return isObject(section) ? Object.entries(section) : [];
  }
  const root = parseEditable(file.path, text);
  if (root instanceof ConfigError) return root;
  const at = (path: readonly string[]): [string, JsonValue][] =>
    keysAt(root, path).flatMap((alias) => {
      const value = valueAt(root, [...path, alias]);
      return value === undefined ? [] : [[alias, value]];
    });
  if (file.shape === "vscode") return at(["servers"]);
  if (file.shape !== "claude-json") return at(["mcpServers"]);
  // ~/.claude.json: the user's servers at the top, this project's own (Claude Code's local scope) under its path.
  const projects = new Set([projectDir, projectKey(projectDir)]);
  return [...[...projects].flatMap((dir) => at(["projects", dir, "mcpServers"])), ...at(["mcpServers"])];
}

/** The aliases of one host's file, read as `mca mcp import` reads it. */
export function hostFileAliases(file: HostFile, text: string, projectDir: string): string[] | ConfigError {
  const entries = rawEntries(file, text, projectDir);
  return entries instanceof ConfigError ? entries : [...new Set(entries.map(([alias]) => alias))];
}

const NOT_CARRIED: Readonly<Record<string, string>> = {
  trust: "mca asks before a server's tools run; allow them with --allow",
  alwaysAllow: "mca asks before a server's tools run; allow them with --allow",
  autoApprove: "mca asks before a server's tools run; allow them with --allow",
  description: "mca has no field for it",
  envFile: "mca does not read env files: give its variables with -e",
  dev: "VS Code's development mode has no meaning here",
  authProviderType: "mca finds the authorization server itself (mca mcp login)",
};

/** What mca's reader expands in its own files as the editors do (host-variables.ts): kept as written. */
const EDITOR_VARIABLES = new Set(["workspaceFolder", "workspaceFolderBasename", "userHome", "pathSeparator", "/"]);

/** An entry's `${…}` checked: mca reads each as the host does, but VS Code's inputs, which it never writes down. */
function settleVariables(text: string): string | Error {
  for (const [whole, body = ""] of text.matchAll(/\$\{([^}]*)\}/g)) {
    if (body.startsWith("input:")) {
      return new Error(`asks for VS Code's input "${body.slice(6)}", which mca never writes down: add it with mca mcp add -e NAME='\${NAME}' instead`);
    }
    if (!EDITOR_VARIABLES.has(body) && !/^(env:)?[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?$/.test(body)) return new Error(`uses ${whole}, which mca has no value for`);
  }
  return text;
}

function settleStrings(value: JsonValue): JsonValue | Error {
  if (typeof value === "string") return settleVariables(value);
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    for (const item of value) {
      const settled = settleStrings(item);
      if (settled instanceof Error) return settled;
      items.push(settled);
    }
    return items;
  }
  if (!isObject(value)) return value;
  const entries: [string, JsonValue][] = [];
  for (const [key, item] of Object.entries(value)) {
    const settled = settleStrings(item);
    if (settled instanceof Error) return settled;
    entries.push([key, settled]);
  }
  return Object.fromEntries(entries);
}

function seconds(value: JsonValue | undefined): number | undefined {
  return typeof value === "number" && value > 0 ? Math.round(value * 1000) : undefined;
}

/** Codex's `[mcp_servers.<name>]` in mca's names; what mca's reader takes as Codex spells it (`enabled_tools`, …) stays. */
function fromCodex(raw: JsonObject): JsonObject {
  const { bearer_token_env_var, http_headers, env_http_headers, env_vars, startup_timeout_sec, startup_timeout_ms, tool_timeout_sec, ...rest } = raw;
  const headers: Record<string, JsonValue> = isObject(http_headers) ? { ...http_headers } : {};
  if (isObject(env_http_headers)) for (const [name, variable] of Object.entries(env_http_headers)) headers[name] = `\${${String(variable)}}`;
  if (typeof bearer_token_env_var === "string" && rest.url !== undefined) headers.Authorization = `Bearer \${${bearer_token_env_var}}`;
  const env: Record<string, JsonValue> = isObject(rest.env) ? { ...rest.env } : {};
  // env_vars names variables passed on from mca's own environment.
  if (Array.isArray(env_vars)) for (const name of env_vars) if (typeof name === "string" && !(name in env)) env[name] = `\${${name}}`;
  const startup = seconds(startup_timeout_sec) ?? (typeof startup_timeout_ms === "number" ? startup_timeout_ms : undefined);
  const tool = seconds(tool_timeout_sec);
  return {
    ...rest,
    ...(Object.keys(env).length === 0 ? {} : { env }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(startup === undefined ? {} : { startupTimeoutMs: startup }),
    ...(tool === undefined ? {} : { timeoutMs: tool }),
  };
}

/** Gemini CLI expands `$NAME` as it does `${NAME}`; mca reads only the braced form, so it is written that way. */
function bracedVariables(value: JsonValue): JsonValue {
  if (typeof value === "string") return value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, "${$1}");
  if (Array.isArray(value)) return value.map(bracedVariables);
  return isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bracedVariables(item)])) : value;
}

/** One entry as mca's file holds it, with notes; or why it is not imported. */
function convert(shape: Shape, raw: JsonValue): { readonly entry: JsonValue; readonly notes: string[] } | Error {
  if (!isObject(raw)) return new Error("is not an object");
  const notes: string[] = [];
  const kept: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(shape === "codex" ? fromCodex(raw) : raw)) {
    const why = NOT_CARRIED[key];
    // `trust: false` and empty lists grant nothing: nothing to say about them.
    const grants = !(value === false || (Array.isArray(value) && value.length === 0));
    if (why !== undefined) {
      if (grants) notes.push(`${key} not carried over: ${why}`);
    } else if (shape === "gemini" && key === "oauth") notes.push(`oauth not carried over: ${NOT_CARRIED.authProviderType}`);
    else kept[key] = value;
  }
  // Gemini CLI's `url` is an SSE endpoint (its Streamable HTTP one is `httpUrl`).
  if (shape === "gemini" && kept.url !== undefined && kept.type === undefined && kept.httpUrl === undefined) kept.type = "sse";
  const settled = settleStrings(shape === "gemini" ? bracedVariables(kept) : kept);
  return settled instanceof Error ? settled : { entry: settled, notes };
}

/** The host's servers, each file read as its host reads it; an alias in two files is taken from the first (the project's). */
export function readHostServers(host: HostName, where: HostWhere): HostServers {
  const files = hostFiles(host, where);
  const found: string[] = [];
  const servers: HostServer[] = [];
  const skipped: HostSkipped[] = [];
  const problems: ConfigError[] = [];
  for (const file of files) {
    const text = readConfigText(file.path, "cannot read the file");
    if (text === null) continue;
    found.push(file.path);
    const entries = text instanceof ConfigError ? text : rawEntries(file, text, where.projectDir);
    if (entries instanceof ConfigError) {
      problems.push(entries);
      continue;
    }
    for (const [alias, raw] of entries) {
      const first = servers.find((server) => server.alias === alias);
      if (first !== undefined) {
        skipped.push({ alias, file: file.path, reason: `also in ${first.file}, which is taken` });
        continue;
      }
      const converted = convert(file.shape, raw);
      if (converted instanceof Error) skipped.push({ alias, file: file.path, reason: converted.message });
      else servers.push({ alias, file: file.path, ...converted });
    }
  }
  return { searched: files.map((file) => file.path), found, servers, skipped, problems };
}
