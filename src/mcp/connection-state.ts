// The life of one server's connection as data: one state union and the pure `nextState` that is the only
// way from one state to the next. server-connection.ts does what the states ask for (start, restart, close);
// here nothing happens, so every transition can be read, and tested, on its own.
import type { McpError } from "./jsonrpc.js";
import type { McpClient } from "./client.js";
import type { Started } from "./server-start.js";
import type { RemoteToolInfo } from "./tool-list.js";

/**
 * What a server that came up keeps while up and once down: the era is settled once, and a restart keeps it.
 * "A stdio server that exits unexpectedly is restarted once, on the next call to it": `restartsLeft` counts that.
 */
export type Settled = Started & { readonly restartsLeft: number };

export type ConnectionState =
  /**
   * Coming up (first connect or `/mcp reconnect`): calls wait for `done`. Shown as failed with `why`. Only
   * the start named by `attempt` may end it: one superseded by a reconnect closes what it opened.
   */
  | { readonly kind: "starting"; readonly why: "not started" | "reconnecting"; readonly attempt: object; readonly done: Promise<void> }
  | ({ readonly kind: "up" } & Settled)
  /**
   * Came up, then went away. `alive`: the client still takes calls (an HTTP server that could not be
   * reached once). `restart` is the one under way, shared by the calls that wait for it.
   */
  | ({ readonly kind: "down"; readonly reason: string; readonly alive: boolean; readonly restart?: Promise<McpClient | McpError> } & Settled)
  | { readonly kind: "needs-login"; readonly reason: string }
  | { readonly kind: "failed"; readonly reason: string }
  /** The session is ending; the status still shows what the server was. */
  | { readonly kind: "closed"; readonly was: Exclude<ConnectionState, { readonly kind: "closed" }> };

export type ConnectionEvent =
  | { readonly type: "starting"; readonly why: "not started" | "reconnecting"; readonly attempt: object; readonly done: Promise<void> }
  | { readonly type: "started"; readonly attempt: object; readonly started: Started }
  | { readonly type: "start-failed"; readonly attempt: object; readonly reason: string; readonly needsLogin: boolean }
  /** The client ended on its own: its child exited, its transport gave up. */
  | { readonly type: "client-closed"; readonly client: McpClient; readonly reason: string }
  /** A call could not reach the server, or lost a legacy session that could not be renewed. */
  | { readonly type: "call-failed"; readonly client: McpClient; readonly reason: string }
  | { readonly type: "call-answered"; readonly client: McpClient }
  /** The server said its tools changed, and `client` listed them anew. */
  | { readonly type: "tools-listed"; readonly client: McpClient; readonly tools: RemoteToolInfo[] }
  | { readonly type: "restarting"; readonly restart: Promise<McpClient | McpError> }
  | { readonly type: "restarted"; readonly client: McpClient }
  | { readonly type: "restart-failed"; readonly reason: string }
  | { readonly type: "close" };

/** How many times a server that died is started again by a call (stdio only: an HTTP call is its own request). */
const RESTARTS = 1;

/** Whether `client` is the one that takes this state's calls. */
function takesCalls(state: ConnectionState, client: McpClient): boolean {
  return (state.kind === "up" || (state.kind === "down" && state.alive)) && state.client === client;
}

function settledOf(state: Extract<ConnectionState, { kind: "up" | "down" }>): Settled {
  const { client, era, transport, detected, tools, login, restartsLeft } = state;
  return { client, era, transport, detected, tools, login, restartsLeft };
}

/**
 * Every transition of a connection. An event that does not apply to the state leaves it as it is: a client
 * replaced by a restart or a reconnect, or closed at the session's end, says nothing about the server now.
 */
export function nextState(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  if (state.kind === "closed") return state;
  switch (event.type) {
    case "starting":
      return { kind: "starting", why: event.why, attempt: event.attempt, done: event.done };
    case "started":
      return state.kind === "starting" && state.attempt === event.attempt ? { kind: "up", ...event.started, restartsLeft: RESTARTS } : state;
    case "start-failed":
      if (state.kind !== "starting" || state.attempt !== event.attempt) return state;
      return event.needsLogin ? { kind: "needs-login", reason: event.reason } : { kind: "failed", reason: event.reason };
    case "client-closed":
    case "call-failed":
      if (state.kind !== "up" && state.kind !== "down") return state;
      if (!takesCalls(state, event.client)) return state;
      return { kind: "down", ...settledOf(state), reason: event.reason, alive: event.type === "call-failed" };
    case "call-answered":
      return state.kind === "down" && takesCalls(state, event.client) ? { kind: "up", ...settledOf(state) } : state;
    case "tools-listed":
      return (state.kind === "up" || state.kind === "down") && state.client === event.client ? { ...state, tools: event.tools } : state;
    case "restarting":
      return state.kind === "down" && state.restartsLeft > 0 ? { ...state, restartsLeft: state.restartsLeft - 1, restart: event.restart } : state;
    case "restarted":
      return state.kind === "down" && state.restart !== undefined ? { kind: "up", ...settledOf(state), client: event.client } : state;
    case "restart-failed":
      return state.kind === "down" && state.restart !== undefined ? { ...state, reason: `restart failed: ${event.reason}`, restart: undefined } : state;
    case "close":
      return { kind: "closed", was: state };
    default: {
      const unknown: never = event;
      throw new Error(`unknown connection event ${JSON.stringify(unknown)}`);
    }
  }
}
