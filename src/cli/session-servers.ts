// The MCP servers as a session's modes and slash commands see them: each server's status, and what a person
// can do with them — restart one, log in to one, run their prompts as commands, answer their questions. A run
// without servers gets the same object, whose abilities say that there are none, so no mode asks first.
import type { MountedServers } from "../mcp/index.js";
import type { PromptCatalog, SessionServers } from "./session-seam.js";
import type { CliInputResponder } from "./input/responder.js";
import { disabledStatuses, NO_SERVERS_MESSAGE, withOrigin, type ScopedMcpConfig } from "./mcp-servers.js";
import { createPromptCatalog } from "./prompt-commands.js";
import type { Runtime } from "./runtime.js";

export interface SessionServersDeps {
  /** The servers brought up; undefined when the run configures none. */
  readonly mounted: MountedServers | undefined;
  readonly config: ScopedMcpConfig | null;
  readonly noneLine: string;
  readonly inputResponder: CliInputResponder;
  readonly runtime: Pick<Runtime, "env" | "warn" | "addSecret">;
}

/** A catalogue with no server to list: every listing has ended. */
const NO_PROMPTS: PromptCatalog = { current: () => [], settled: async () => [], refresh: async () => undefined };

export function createSessionServers(deps: SessionServersDeps): SessionServers {
  const { mounted, config, runtime } = deps;
  const disabled = config === null ? [] : disabledStatuses(config);
  const listing = new AbortController();
  let catalog: PromptCatalog | undefined;
  return {
    statuses: () => [...(mounted?.statuses() ?? []), ...disabled].map((status) => withOrigin(status, config)),
    noneLine: deps.noneLine,
    appOnlyTools: () => mounted?.appOnlyTools ?? [],
    reconnect: async (alias, signal) => {
      if (mounted === undefined) return new Error(NO_SERVERS_MESSAGE);
      const status = await mounted.reconnect(alias, signal);
      return status instanceof Error ? status : { status, remoteTools: mounted.tools };
    },
    login: async (alias, print, fail, lend) => {
      const { runMcpLogin } = await import("./mcp-login.js");
      return runMcpLogin({ config, env: runtime.env, out: print, err: fail, interactive: true, addSecret: runtime.addSecret, lend }, alias);
    },
    prompts: () => {
      if (mounted === undefined || mounted.connections.length === 0) return NO_PROMPTS;
      catalog ??= createPromptCatalog(mounted.connections, { warn: runtime.warn, signal: listing.signal, watch: (listener) => mounted.onListChanged(listener) });
      return catalog;
    },
    answerOn: (lend) => deps.inputResponder.attachTerminal(lend),
    stopListing: () => listing.abort(),
  };
}
