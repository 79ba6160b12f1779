// `/status`: the model answering now, how full the context is, the MCP servers' states and the session —
// the same lines in the chat and in pipe mode.
import { CONTEXT_WINDOW_TOKENS, type Agent, type ContextUse } from "../kernel/index.js";
import type { SessionServers } from "./session-seam.js";
import { untrustedText } from "./untrusted-text.js";

/** What of a session its status is read from. */
export interface StatusSources {
  readonly agent: Pick<Agent, "contextUse">;
  readonly servers: Pick<SessionServers, "statuses">;
  readonly model: { readonly answering: { readonly name: string } };
  readonly id: string;
  readonly projectDir: string;
}

export function statusLines(session: StatusSources): string[] {
  const servers = session.servers.statuses();
  return [
    `model: ${session.model.answering.name}`,
    `context: ${contextText(session.agent.contextUse())}`,
    `MCP servers: ${servers.length === 0 ? "none" : servers.map((server) => `${untrustedText(server.alias)} ${server.state}`).join(", ")}`,
    `session: ${session.id} · project ${untrustedText(session.projectDir)}`,
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
