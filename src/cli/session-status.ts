// `/status`: the model answering now, how full the context is, the MCP servers' states and the session —
// the same lines in the chat and in pipe mode.
import { CONTEXT_WINDOW_TOKENS, type Agent, type ContextUse } from "../kernel/index.js";
import type { ServerStatusProvider } from "./mcp-servers.js";
import { untrustedText } from "./untrusted-text.js";

export interface StatusSources {
  readonly agent: Pick<Agent, "contextUse">;
  readonly servers: ServerStatusProvider;
  /** Unknown where the caller was given none (a chat in a test). */
  readonly modelName: (() => string) | undefined;
  readonly sessionId: string | undefined;
  readonly projectDir: string;
}

export function statusLines(sources: StatusSources): string[] {
  const servers = sources.servers();
  return [
    `model: ${sources.modelName?.() ?? "unknown"}`,
    `context: ${contextText(sources.agent.contextUse())}`,
    `MCP servers: ${servers.length === 0 ? "none" : servers.map((server) => `${untrustedText(server.alias)} ${server.state}`).join(", ")}`,
    `session: ${sources.sessionId ?? "unknown"} · project ${untrustedText(sources.projectDir)}`,
  ];
}

/** The context line: the tokens of the latest request, against the window. */
function contextText(context: ContextUse | null): string {
  if (context === null) return "no request yet (or none since the last /clear or compaction)";
  const tokens = context.tokens.toLocaleString("en-US");
  const window = CONTEXT_WINDOW_TOKENS.toLocaleString("en-US");
  return context.estimated
    ? `about ${tokens} tokens (of ${window}), estimated from its length: the model reports no usage`
    : `${tokens} tokens at the last request (of ${window})`;
}
