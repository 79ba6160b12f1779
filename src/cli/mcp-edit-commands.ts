// `mca mcp add`, `add-json`, `remove` and `get` (declared in mcp-edit-program.ts): the user's servers written
// into a scope's file, checked first by the reader that reads them at start-up, and shown with every secret
// hidden. `mca mcp import` runs in mcp-import-command.ts.
import {
  addServer,
  checkServerEntry,
  ConfigError,
  findServer,
  MCP_SCOPES,
  removeServer,
  scopePlaces,
  type EditContext,
  toJsonValue,
  type JsonValue,
  type McpScope,
} from "../config/index.js";
import type { McpEditCommand } from "./mcp-edit-program.js";
import { runMcpImportCommand, type ImportDeps } from "./mcp-import-command.js";
import { USAGE_EXIT_CODE } from "./program.js";
import { entryLines, entrySummary } from "./server-entry-view.js";
import type { RuntimeTerminal } from "./runtime.js";
import { createPromptsAsker } from "./terminal.js";
import { untrustedText } from "./untrusted-text.js";

export interface McpEditDeps extends EditContext, ImportDeps {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** A yes/no question on the terminal when stdin and stdout are one; absent otherwise (`import` then needs --yes). */
export function terminalConfirm(terminal: RuntimeTerminal): ImportDeps["confirm"] {
  if (!terminal.interactive()) return undefined;
  // Standard input is made only when `import` asks (add, get and remove never do).
  return (question) => createPromptsAsker({ stdin: terminal.input(), stdout: terminal.output }).confirm(question, false);
}

export async function runMcpEditCommand(deps: McpEditDeps, command: McpEditCommand): Promise<number> {
  switch (command.kind) {
    case "add": {
      const entry = entryFromFlags(command);
      return entry instanceof Error ? usage(deps, "add", entry.message) : addChecked(deps, "add", command.scope, command.name, JSON.stringify(entry), undefined);
    }
    case "add-json":
      return addChecked(deps, "add-json", command.scope, command.name, command.json, "the JSON given");
    case "remove":
      return runRemove(deps, command.name, command.scope);
    case "get":
      return runGet(deps, command.name);
    case "import":
      return runMcpImportCommand(deps, command.host, command.scope, command.yes);
    default: {
      const unknown: never = command;
      throw new Error(`unknown mcp command ${JSON.stringify(unknown)}`);
    }
  }
}

function usage(deps: McpEditDeps, verb: string, message: string): number {
  deps.err(`${untrustedText(`mca mcp ${verb}: ${message}`)}\n`);
  return USAGE_EXIT_CODE;
}

/** `KEY=VALUE` → [KEY, VALUE]; `Name: value` → [Name, value]. The value is never put in a message. */
function pairs(written: readonly string[], separator: string, what: string, shape: string): Record<string, string> | Error {
  const entries: [string, string][] = [];
  for (const each of written) {
    const at = each.indexOf(separator);
    const key = at < 0 ? "" : each.slice(0, at).trim();
    if (key === "") return new Error(`${what} ${JSON.stringify(at < 0 ? "(no separator)" : each.slice(0, at))} must be written ${shape}`);
    entries.push([key, each.slice(at + separator.length).trim()]);
  }
  return Object.fromEntries(entries);
}

/** The entry `mca mcp add` writes, in the shape `.mcp.json` has (Claude Code's): `type` first. */
function entryFromFlags(command: Extract<McpEditCommand, { kind: "add" }>): JsonValue | Error {
  const looksLikeUrl = /^https?:\/\//i.test(command.target);
  const transport = command.transport ?? "stdio";
  if (transport === "stdio") {
    if (command.transport === undefined && looksLikeUrl && command.args.length === 0) {
      return new Error(`${command.target} looks like a URL: add -t http (or -t sse) for a remote server, or -t stdio to run it as a command`);
    }
    if (command.headers.length > 0) return new Error("-H is for http and sse servers; a stdio server takes -e");
    const env = pairs(command.env, "=", "-e", "KEY=VALUE");
    if (env instanceof Error) return env;
    return { type: "stdio", command: command.target, args: command.args, ...(Object.keys(env).length === 0 ? {} : { env }) };
  }
  if (command.env.length > 0) return new Error("-e is for stdio servers; an http or sse server takes -H");
  if (command.args.length > 0) return new Error(`an ${transport} server takes one URL, not arguments after it`);
  const headers = pairs(command.headers, ":", "-H", "'Name: value'");
  if (headers instanceof Error) return headers;
  return { type: transport, url: command.target, ...(Object.keys(headers).length === 0 ? {} : { headers }) };
}

/**
 * A check's error: at its line and column in the JSON the user gave (`label`); for an entry made from flags
 * (no label) without them, as they would point into text nobody wrote.
 */
function problem(error: ConfigError, label: string | undefined): string {
  if (label !== undefined || error.position === undefined) return error.message;
  return error.path === "" ? error.detail : `${error.path}: ${error.detail}`;
}

async function addChecked(deps: McpEditDeps, verb: string, scope: McpScope, name: string, text: string, label: string | undefined): Promise<number> {
  const place = { projectDir: deps.projectDir, fromProject: scope === "project" };
  const checked = checkServerEntry(name, text, label ?? "the server given", deps.env, place);
  if (checked instanceof ConfigError) return usage(deps, verb, `${problem(checked, label)}; nothing was written`);
  const parsed: unknown = JSON.parse(text);
  const entry = toJsonValue(parsed);
  if (entry === undefined) throw new Error("a checked entry is JSON");
  const written = await addServer(scope, name, entry, deps);
  if (written instanceof ConfigError) {
    deps.err(`${untrustedText(`mca mcp ${verb}: ${written.message}`)}\n`);
    return 1;
  }
  deps.out(`${untrustedText(`added "${name}" to the ${scope} scope (${written.file}): ${entrySummary(entry)}`)}\n`);
  for (const warning of checked.warnings) deps.err(`${untrustedText(`warning: ${problem(warning, label)}`)}\n`);
  if (checked.unsetVariables.length > 0) {
    const names = checked.unsetVariables.join(", ");
    deps.err(`${untrustedText(`note: ${names} ${checked.unsetVariables.length === 1 ? "is" : "are"} not set now; mca skips "${name}" until ${checked.unsetVariables.length === 1 ? "it is" : "they are"}`)}\n`);
  }
  noteOtherScopes(deps, name, scope);
  return 0;
}

/** The same alias in another scope: the narrower one is used. */
function noteOtherScopes(deps: McpEditDeps, name: string, scope: McpScope): void {
  const others = findServer(name, deps).found.filter((found) => found.place.scope !== scope);
  for (const other of others) {
    const used = MCP_SCOPES.indexOf(scope) < MCP_SCOPES.indexOf(other.place.scope) ? scope : other.place.scope;
    deps.err(`${untrustedText(`note: "${name}" is in the ${other.place.scope} scope too (${other.place.file}); the ${used} one is used`)}\n`);
  }
}

async function runRemove(deps: McpEditDeps, name: string, scope: McpScope | undefined): Promise<number> {
  const { found, problems } = findServer(name, deps);
  for (const problem of problems) deps.err(`${untrustedText(`mca mcp remove: ${problem.message}`)}\n`);
  const scopes = [...new Set(found.map((each) => each.place.scope))].filter((each) => scope === undefined || each === scope);
  const [only, ...more] = scopes;
  if (only === undefined) {
    const where = scope === undefined ? "any scope" : `the ${scope} scope`;
    const files = (scope === undefined ? MCP_SCOPES : [scope]).flatMap((each) => scopePlaces(each, deps)).map((place) => place.file);
    deps.err(`${untrustedText(`mca mcp remove: no server "${name}" in ${where} (read: ${files.join(", ")})`)}\n`);
    return 1;
  }
  if (more.length > 0) {
    const named = found.map((each) => `${each.place.scope} (${each.place.file})`).join(", ");
    deps.err(`${untrustedText(`mca mcp remove: "${name}" is in ${named}: name the scope with -s ${scopes.join("|")}`)}\n`);
    return 1;
  }
  const removed = await removeServer(only, name, deps);
  if (removed instanceof ConfigError) {
    deps.err(`${untrustedText(`mca mcp remove: ${removed.message}`)}\n`);
    return 1;
  }
  for (const place of removed) deps.out(`${untrustedText(`removed "${name}" from the ${only} scope (${place.file})`)}\n`);
  return 0;
}

async function runGet(deps: McpEditDeps, name: string): Promise<number> {
  const { found, problems } = findServer(name, deps);
  for (const problem of problems) deps.err(`${untrustedText(`mca mcp get: ${problem.message}`)}\n`);
  if (found.length === 0) {
    deps.err(`${untrustedText(`mca mcp get: no server "${name}" in any scope`)}\n`);
    return 1;
  }
  found.forEach((each, index) => {
    const standing = index === 0 ? (found.length > 1 ? " (used: the narrowest scope wins)" : "") : " (not used: a narrower scope has it)";
    const lines = [`${name}:`, `  scope: ${each.place.scope}${standing}`, `  file: ${each.place.file}`];
    deps.out(`${[...lines.map(untrustedText), ...entryLines(each.entry)].join("\n")}\n`);
  });
  return 0;
}

