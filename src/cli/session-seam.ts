// The seam between a session and what runs in it: the Session value every mode (the chat, pipe mode, -p,
// the subcommands) takes whole, the servers as it offers them, what a line of input runs with, and what a
// slash command is, with the plain view of a mode without a terminal. session.ts builds a Session,
// session-servers.ts its servers, the modes and commands.ts use them.
import type { Agent, AgentEvent, ApprovalAnswer, ApprovalRequest, NobodyToAsk, Tool, ToolImage, UserDenial } from "../kernel/index.js";
import type { ProjectState } from "../session/index.js";
import type { CostTally } from "./cost.js";
import type { ServerStatus } from "./mcp-servers.js";
import type { Mentions } from "./mentions.js";
import type { Runtime } from "./runtime.js";
import type { ServerQuestion } from "./server-completion.js";
import type { SessionModel } from "./session-model.js";
import type { TerminalLender } from "./terminal.js";

/** What a mode gives the session while it runs: how to ask for approval and where the agent's events go. */
export interface SessionIo {
  readonly approve: (request: ApprovalRequest) => Promise<ApprovalAnswer | NobodyToAsk | UserDenial>;
  readonly emit: (event: AgentEvent) => void;
}

export interface Session {
  /** Short enough to type after --resume: `20261202-231834-4242`. */
  readonly id: string;
  readonly projectDir: string;
  /** The folder outside the project where this session's transcript, snapshots and input history go. */
  readonly state: ProjectState;
  /** The chat's first lines: model, tools, project, session (and the session it resumed). */
  readonly banner: string;
  /** The session's one agent; what it emits (redacted) goes to the mode attached. */
  readonly agent: Agent;
  /** From now until the returned function is called, `mode` answers the agent's approvals and hears its events. */
  attach(mode: SessionIo): () => void;
  readonly model: SessionModel;
  readonly servers: SessionServers;
  /** `@path` and `@alias:uri` in a prompt, and Tab after `@`. */
  readonly mentions: Mentions;
  /** The newest tool result, as the model received it (/last). */
  lastResult(): LastResult | undefined;
  /** Tokens and estimated cost, per turn and for the session (/cost). */
  readonly costs: CostTally;
  /** Where the session writes and warns, its terminal, its clock, and what stops it. */
  readonly runtime: Runtime;
}

/** A server closed and connected again: its status, and every remote tool offered now. */
export interface Reconnected {
  readonly status: ServerStatus;
  readonly remoteTools: readonly Tool[];
}

export interface SessionServers {
  /** Each server's status as /mcp and `mca mcp list` show it, read afresh: a server that died since shows disconnected. */
  statuses(): readonly ServerStatus[];
  /** What an empty list says: "no MCP servers configured", naming the files looked at. */
  readonly noneLine: string;
  /** The tools servers keep for their apps (MCP Apps): listed by `mca tools --json`, never offered to the model. */
  appOnlyTools(): readonly Tool[];
  /** `/mcp reconnect <alias>`; an Error naming why (no such server, none configured). */
  reconnect(alias: string, signal: AbortSignal): Promise<Reconnected | Error>;
  /** `/mcp login <alias>`: 0 once logged in; a question it has (another authorization server) is asked on the lent terminal. */
  login(alias: string, print: (text: string) => void, fail: (text: string) => void, lend: TerminalLender): Promise<number>;
  /** The servers' prompts as slash commands: listed in the background from the first call on, again when a server says they changed. */
  prompts(): PromptCatalog;
  /** The servers' questions (elicitation) are asked on this terminal from now on. */
  answerOn(lend: TerminalLender): void;
  /** Ends the listings still running, without a word: the session is over. */
  stopListing(): void;
}

export interface LineRun {
  readonly session: Session;
  readonly view: ModeView;
  /** Aborted by Ctrl-C or Esc during this line. */
  readonly signal: AbortSignal;
}

/** Where a mode shows what a line prints: the chat's terminal, or pipe mode's stdout and stderr. */
export interface ModeView {
  /** Output; a final newline is added when missing. */
  print(text: string): void;
  /** Diagnostics. */
  warn(text: string): void;
  /** Lines about a turn that are not its answer (what a prompt attached). */
  note(text: string): void;
  /** The terminal's width in the chat (table rows are cut to it instead of wrapping mid-word); undefined: no limit. */
  width(): number | undefined;
  /** A long text, in a pager where there is a terminal; else printed. */
  page(text: string): Promise<void>;
  /** A user's turn starts (typed, or handed over by a command): the chat shows that the model is thinking. */
  turnStarts(): void;
  /**
   * The terminal a person types the lines on, lent for a question (a login's): null where nobody does (pipe
   * mode, -p), and there `!command` and `/mcp login` are refused.
   */
  readonly terminal: TerminalLender | null;
}

/**
 * The view of a mode without a terminal (pipe mode, -p, the subcommands): lines printed whole, no width, no
 * pager, a note as a diagnostic; nobody types, so nothing is lent.
 */
export function plainView(print: (text: string) => void, warn: (text: string) => void): ModeView {
  return { print, warn, note: warn, width: () => undefined, page: async (text) => print(text), turnStarts: () => undefined, terminal: null };
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
  run(line: LineRun, argText: string): Promise<CommandOutcome>;
  /** Tab at the end of the command's arguments: what to ask the server whose prompt the command is (MCP prompts only). */
  complete?(argText: string): ServerQuestion | undefined;
}
