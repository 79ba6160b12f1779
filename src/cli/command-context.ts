// What a line of input runs with in any mode (the chat, pipe mode, -p), and what a slash command is: the
// seam between the line's dispatch (commands.ts) and the commands and line kinds it hands the line to.
import type { Agent, ToolImage } from "../kernel/index.js";
import type { ServerQuestion } from "./server-completion.js";
import type { CountTokens } from "./context-report.js";
import type { ServerReconnect, ServerStatusProvider } from "./mcp-servers.js";
import type { Mentions } from "./mentions.js";

export interface CommandContext {
  readonly agent: Agent;
  readonly servers: ServerStatusProvider;
  /** Output for stdout; a final newline is added when missing. */
  readonly print: (text: string) => void;
  /** Diagnostics for stderr. */
  readonly warn: (text: string) => void;
  /** Aborted by Ctrl-C during this line. */
  readonly signal: AbortSignal;
  /** The terminal's width in the chat: table rows are cut to it instead of wrapping mid-word. Unset: no limit. */
  readonly width?: number;
  /** The last tool result of this session, as the model received it (the chat keeps it for /last). */
  readonly lastResult?: () => LastResult | undefined;
  /** `/status`: model, context use, servers and session, where the chat keeps them. */
  readonly statusLines?: () => readonly string[];
  /** `/model <name>`: the model for the next turn; its name, or why it cannot change. */
  readonly switchModel?: (name: string) => Promise<string | Error>;
  /** `/model` alone: the model answering now. */
  readonly modelName?: () => string;
  /** `/context`: the API's count of a request's tokens; absent for a model that cannot count (then it is estimated). */
  readonly countTokens?: CountTokens;
  /** `/cost`: the session's tokens and estimated cost, where the chat keeps them. */
  readonly costLines?: () => readonly string[];
  /** Shows a long text in a pager where there is a terminal; else it is printed. */
  readonly page?: (text: string) => Promise<void>;
  /** `/mcp login <alias>` where a person can take the browser step (the chat): 0 once logged in. */
  readonly mcpLogin?: (alias: string, print: (text: string) => void, fail: (text: string) => void) => Promise<number>;
  /** `/mcp reconnect <alias>`; absent when the run mounted no servers. */
  readonly reconnectServer?: ServerReconnect;
  /** The MCP servers' prompts as commands; absent when the run mounted no servers. */
  readonly promptCommands?: PromptCatalog;
  /** Told as a user's turn starts (typed, or handed over by a command): the chat shows that the model is thinking. */
  readonly onTurnStart?: () => void;
  /** `@alias:uri` in a typed prompt attaches that resource; absent when no server declares resources. */
  readonly mentions?: Mentions;
  /** Lines about a turn that are not its answer (what a prompt attached); `print` when not given. */
  readonly note?: (text: string) => void;
  /** Set where a person types the lines (the chat): `!command` runs there, and is refused elsewhere. */
  readonly shellLines?: boolean;
}

/** Slash commands that come and go with the servers (their prompts), listed in the background. */
export interface PromptCatalog {
  /** The commands listed so far. */
  current(): readonly SlashCommand[];
  /** The commands once every listing started so far has ended. */
  settled(): Promise<readonly SlashCommand[]>;
  /** Lists one server's prompts again: it came back, or said they changed. */
  refresh(alias: string): Promise<void>;
}

export interface LastResult {
  readonly tool: string;
  readonly text: string;
  readonly truncated: boolean;
  /** Where the whole text was kept when it was cut (the tool_end event's `spill`). */
  readonly spill?: string;
}

/** What a command hands the mode to run as the user's turn, exactly as if typed (an MCP prompt's messages). */
export interface UserTurn {
  readonly prompt: string;
  readonly images?: readonly ToolImage[];
}

/** How a line ended: "failed" makes pipe mode exit 1; "exit" ends the session. */
export type LineOutcome = "ok" | "failed" | "exit";
/** A command's outcome, or a user turn for the line to run. */
export type CommandOutcome = LineOutcome | UserTurn;

export interface SlashCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  run(context: CommandContext, argText: string): Promise<CommandOutcome>;
  /** Tab at the end of the command's arguments: what to ask the server whose prompt the command is (MCP prompts only). */
  complete?(argText: string): ServerQuestion | undefined;
}
