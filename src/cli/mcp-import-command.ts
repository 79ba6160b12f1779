// `mca mcp import <host>`: the servers another host has configured, shown one a line with secrets hidden,
// then added to a scope after a yes in a terminal (or with --yes). Each is checked by the reader that reads
// it at start-up first; one whose alias the scope has already is skipped with a line, never overwritten.
import {
  addServer,
  checkServerEntry,
  ConfigError,
  findServer,
  readHostServers,
  scopePlaces,
  type EditContext,
  type HostName,
  type HostServer,
  type McpScope,
} from "../config/index.js";
import { entrySummary } from "./server-entry-view.js";
import { untrustedText } from "./untrusted-text.js";

export interface ImportDeps {
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** Asks a yes/no question in the terminal (undefined when cancelled); absent without a terminal. */
  readonly confirm: ((question: string) => Promise<boolean | undefined>) | undefined;
}

interface Deps extends EditContext, ImportDeps {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

function say(write: (text: string) => void, line: string): void {
  write(`${untrustedText(line)}\n`);
}

export async function runMcpImportCommand(deps: Deps, host: HostName, scope: McpScope, yes: boolean): Promise<number> {
  const read = readHostServers(host, { projectDir: deps.projectDir, home: deps.home, env: deps.env, platform: deps.platform });
  for (const problem of read.problems) say(deps.err, `mca mcp import: ${problem.message}`);
  if (read.found.length === 0) {
    say(deps.err, `mca mcp import: no ${host} configuration found (looked for ${read.searched.join(", ")})`);
    return 1;
  }
  const target = scopePlaces(scope, deps)[0]?.file ?? "";
  const place = { projectDir: deps.projectDir, fromProject: scope === "project" };
  const adding: { readonly server: HostServer; readonly warnings: readonly string[] }[] = [];
  const skip = (alias: string, file: string, reason: string): void => say(deps.out, `  skipped ${alias} (${file}): ${reason}`);
  for (const skipped of read.skipped) skip(skipped.alias, skipped.file, skipped.reason);
  for (const server of read.servers) {
    const there = findServer(server.alias, deps).found.find((found) => found.place.scope === scope);
    if (there !== undefined) {
      skip(server.alias, server.file, `already in the ${scope} scope (${there.place.file})`);
      continue;
    }
    const checked = checkServerEntry(server.alias, JSON.stringify(server.entry), server.file, deps.env, place);
    if (checked instanceof ConfigError) {
      skip(server.alias, server.file, checked.path === "" ? checked.detail : `${checked.path}: ${checked.detail}`);
      continue;
    }
    // What the reader would warn of at start-up (a field it does not use) is said now, beside the server.
    adding.push({ server, warnings: checked.warnings.map((warning) => (warning.path === "" ? warning.detail : `${warning.path}: ${warning.detail}`)) });
  }
  if (adding.length === 0) {
    say(deps.out, `nothing to add from ${host} to the ${scope} scope`);
    return 0;
  }
  say(deps.out, `${host}: ${adding.length} server${adding.length === 1 ? "" : "s"} to add to the ${scope} scope (${target}):`);
  for (const { server, warnings } of adding) {
    say(deps.out, `  ${server.alias}  ${entrySummary(server.entry)}  (from ${server.file})`);
    for (const note of [...server.notes, ...warnings]) say(deps.out, `    ${note}`);
  }
  if (!yes) {
    if (deps.confirm === undefined) {
      say(deps.err, "mca mcp import: no terminal to ask; nothing was added. Run it again with --yes to add them");
      return 1;
    }
    const answer = await deps.confirm(`Add ${adding.length === 1 ? "it" : `these ${adding.length}`} to the ${scope} scope?`);
    if (answer !== true) {
      say(deps.out, "nothing was added");
      return 0;
    }
  }
  let failed = false;
  for (const { server } of adding) {
    const written = await addServer(scope, server.alias, server.entry, deps);
    if (written instanceof ConfigError) {
      say(deps.err, `mca mcp import: ${server.alias}: ${written.message}`);
      failed = true;
    } else say(deps.out, `added ${server.alias}`);
  }
  return failed ? 1 : 0;
}
