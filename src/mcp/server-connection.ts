// One configured MCP server over the whole session, as a state machine: one state value, changed only by
// `nextState` (connection-state.ts). It comes up once, and afterwards it is exactly one of up, down (came up, then died), failed
// (never came up), needing a login, or closed. This is the one place where a thrown McpError becomes a value:
// calls never throw, a server that is not there gives an McpError naming the reason, and its warnings and
// status name the server once.
import { describeError, type Redact, type ToolArgs } from "../kernel/index.js";
import type { CallToolOptions, CallToolOutcome } from "./call-result.js";
import type { McpClient, RequestOptions } from "./client.js";
import { isLostSession, LoginNeeded } from "./http/failure.js";
import { asMcpError, McpError, type JsonObject } from "./jsonrpc.js";
import { nextState, type ConnectionEvent, type ConnectionState, type Settled } from "./connection-state.js";
import { createCoalescer, type ListChange, type ListKind } from "./list-changes.js";
import { createServerLog, DEFAULT_LOG_LEVEL, type ServerLog } from "./server-log.js";
import { specRedactor, type McpServerConfig } from "./server-spec.js";
import { createServerOpener, restartServer, startServer, type ConnectionDeps, type ServerOpener, type Started } from "./server-start.js";
import type { RemoteToolInfo } from "./tool-list.js";

export { STARTUP_TIMEOUT_MS, type ConnectionDeps, type LoginDeps, type TransportSeams } from "./server-start.js";

/** "needs login": an HTTP server that asks for an authorization no stored token answers (`mca mcp login <alias>`). */
export type ServerState = "connected" | "failed" | "disconnected" | "needs login";

/** The shape `/mcp` and `mca mcp list --json` show: a scripting contract, so fields are only ever added. */
export interface ServerStatus {
  readonly alias: string;
  /** How its messages travel now: the config's transport, or the old HTTP+SSE one its URL answered as. */
  readonly transport: "stdio" | "http" | "sse";
  /** Set when the transport is not the config's: an "http" URL that turned out to serve the old HTTP+SSE transport. */
  readonly transportDetected?: boolean;
  readonly state: ServerState;
  /** The version the server's requests speak now (after a -32022 switch, the new one); null before it came up. */
  readonly protocolVersion: string | null;
  readonly tools: number;
  readonly error: string | null;
  readonly stderrTail: string | null;
  /**
   * The server's latest log messages at or above its level (at most RECENT_LOG_COUNT), oldest first, as
   * `level logger: text`. Always set here; optional so that a status built elsewhere need not carry it.
   */
  readonly recentLogs?: readonly string[];
  /** The server's log messages kept for `/mcp logs` (at most SERVER_LOG_KEPT), oldest first, in the same form; absent when none came. */
  readonly logs?: readonly string[];
  /** How the server is reached: its command and arguments, or its URL (redacted where they hold a secret). */
  readonly endpoint?: string;
  /** The server's own names of the tools mounted from it. */
  readonly toolNames?: readonly string[];
  /** HTTP only: how many times the server lost mca's legacy session (a 404) and a new one was started. */
  readonly sessionRenewals?: number;
  /** 2026-07-28: the lists whose changes the server acknowledged it reports on mca's open subscription. */
  readonly subscribedTo?: readonly ListKind[];
}

export class ServerConnection {
  readonly alias: string;
  /** Applied to what the status and warnings show: a server's own text may echo the secrets of its spec. */
  readonly #redact: Redact;
  /** Kept across restarts: the messages before a crash are the ones that say why. */
  readonly #log: ServerLog;
  readonly #opener: ServerOpener;
  /** Who hears that the server's lists changed (of its tools, once they are listed anew). */
  readonly #listListeners = new Set<(change: ListChange) => void>();
  #state: ConnectionState = { kind: "failed", reason: "not started" };
  /** Resources the server said changed since the model was last told (takeResourceChanges). */
  readonly #changedResources = new Set<string>();

  readonly #deps: ConnectionDeps;

  constructor(
    readonly spec: McpServerConfig,
    deps: ConnectionDeps,
  ) {
    this.#deps = deps;
    this.alias = spec.alias;
    this.#redact = specRedactor(spec);
    this.#log = createServerLog(spec.alias, spec.logLevel ?? DEFAULT_LOG_LEVEL, this.#redact, deps.onLog);
    this.#opener = createServerOpener({
      spec,
      deps,
      redact: this.#redact,
      log: this.#log,
      onClientClosed: (client, reason) => this.#apply({ type: "client-closed", client, reason: reason.message }),
    });
  }

  get tools(): readonly RemoteToolInfo[] {
    return this.#cameUp()?.tools ?? [];
  }

  get state(): ServerState {
    return SHOWN_STATE[this.#shown().kind];
  }

  /**
   * Discovers the server and lists its tools; never rejects — a failure is recorded with its reason. An
   * abort of `signal` gives up as the start-up budget does (`/mcp reconnect` stopped by Ctrl-C).
   */
  connect(signal?: AbortSignal): Promise<void> {
    return this.#start("not started", signal);
  }

  /**
   * `/mcp reconnect`: the server as if newly configured — its client closed (a stdio child ends), then
   * discovered and listed again, the era probed afresh and the one restart on a call available again. A
   * login is read anew from the token store, so one made meanwhile (`/mcp login`) is used.
   */
  reconnect(signal?: AbortSignal): Promise<void> {
    const state = this.#state;
    // Two at once share one: a second would close what the first is opening.
    if (state.kind === "starting" && state.why === "reconnecting") return state.done;
    if (state.kind === "closed" || signal?.aborted === true) return Promise.resolve();
    return this.#start("reconnecting", signal);
  }

  /** What the server declared when it came up (`{}` while it is not up): which lists it offers and whether they change. */
  get capabilities(): JsonObject {
    return this.#cameUp()?.client.serverCapabilities() ?? {};
  }

  /** The server's instructions for the model, as it gave them when it came up; untrusted text. */
  get instructions(): string | undefined {
    return this.#cameUp()?.client.instructions();
  }

  callTool(name: string, args: ToolArgs, options: CallToolOptions): Promise<CallToolOutcome | McpError> {
    return this.#withClient((client) => client.callTool(name, args, options));
  }

  /** Any other request (resources/read, prompts/get…), with the same restart and failure handling as a call. */
  /**
   * A resource mca read (a mention, read_mcp_resource): watched for the rest of the session when the server
   * declares `resources.subscribe`. A change is said once in a line, and kept for the model's next turn.
   */
  watchResource(uri: string): void {
    void this.#cameUp()?.client.watchResource(uri, this.#resourceUpdated);
  }

  /** The resources that changed since the last call; each is then forgotten until it changes again. */
  takeResourceChanges(): string[] {
    const uris = [...this.#changedResources];
    this.#changedResources.clear();
    return uris;
  }

  readonly #resourceUpdated = (uri: string): void => {
    if (this.#state.kind === "closed" || this.#changedResources.has(uri)) return;
    this.#changedResources.add(uri);
    this.#deps.onWarning(`${this.alias}: resource ${this.#redact(uri)} changed; the model hears of it with your next message`);
  };

  request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject | McpError> {
    return this.#withClient((client) => client.request(method, params, options));
  }

  /** `listener` hears each change to the server's lists until the returned function is called. */
  onListChanged(listener: (change: ListChange) => void): () => void {
    this.#listListeners.add(listener);
    return () => this.#listListeners.delete(listener);
  }

  status(): ServerStatus {
    const state = this.#shown();
    const tail = this.#opener.stderrTail();
    const settled = this.#cameUp();
    const client = settled?.client;
    const subscribedTo = client?.subscribedLists() ?? [];
    const logs = this.#log.kept();
    return {
      alias: this.alias,
      transport: settled?.transport ?? this.spec.transport,
      ...(settled?.detected === true ? { transportDetected: true } : {}),
      state: SHOWN_STATE[state.kind],
      protocolVersion: client?.protocolVersion() ?? null,
      tools: this.tools.length,
      endpoint: this.#redact(this.spec.transport === "stdio" ? [this.spec.command, ...this.spec.args].map((word) => JSON.stringify(word)).join(" ") : this.spec.url),
      toolNames: this.tools.map((tool) => tool.name),
      error: this.#redact(errorOf(state)) || null,
      stderrTail: tail === "" ? null : tail,
      recentLogs: this.#log.recent(),
      ...(logs.length === 0 ? {} : { logs }),
      ...(this.spec.transport === "http" ? { sessionRenewals: client?.sessionRenewals() ?? 0 } : {}),
      ...(subscribedTo.length === 0 ? {} : { subscribedTo }),
    };
  }

  async close(): Promise<void> {
    const state = this.#state;
    this.#apply({ type: "close" });
    if (state.kind === "up" || state.kind === "down") await state.client.close();
  }

  /** The state the status describes: a closed connection shows what it was. */
  #shown(): Exclude<ConnectionState, { readonly kind: "closed" }> {
    return this.#state.kind === "closed" ? this.#state.was : this.#state;
  }

  /** What the server settled when it came up (up now, or down since), as the status shows it; undefined before. */
  #cameUp(): Settled | undefined {
    const state = this.#shown();
    return state.kind === "up" || state.kind === "down" ? state : undefined;
  }

  #apply(event: ConnectionEvent): void {
    const before = this.#state;
    const after = nextState(before, event);
    this.#state = after;
    // Told when it happens, not only in /mcp: the next call restarts a stdio server once.
    if (before.kind === "up" && after.kind === "down") this.#deps.onWarning(`${this.alias}: disconnected: ${this.#redact(after.reason)}`);
  }

  #start(why: "not started" | "reconnecting", signal: AbortSignal | undefined): Promise<void> {
    const previous = this.#state;
    if (previous.kind === "closed") return Promise.resolve();
    const attempt = {};
    const done = this.#startFrom(previous, attempt, signal);
    this.#apply({ type: "starting", why, attempt, done });
    return done;
  }

  /** Ends what `previous` holds (a restart under way finishes first, so that what it opens is closed too), then starts. */
  async #startFrom(previous: ConnectionState, attempt: object, signal: AbortSignal | undefined): Promise<void> {
    if (previous.kind === "starting") await previous.done;
    const restarted = previous.kind === "down" ? await previous.restart : undefined;
    if (restarted !== undefined && !(restarted instanceof McpError)) await restarted.close();
    if (previous.kind === "up" || previous.kind === "down") await previous.client.close();
    const started = await startServer(this.spec, this.#opener, { ...(signal === undefined ? {} : { signal }), cap: this.#deps.listingCap });
    if (started instanceof McpError) {
      this.#apply({ type: "start-failed", attempt, reason: this.#opener.describeFailure(started), needsLogin: started instanceof LoginNeeded });
      return;
    }
    this.#apply({ type: "started", attempt, started });
    // Closed meanwhile, or superseded by a reconnect: nobody else will end what this start opened.
    const now = this.#state;
    if (now.kind !== "up" || now.client !== started.client) await started.client.close();
    else this.#watchLists(started.client);
  }

  /** For as long as `client` lives: a tools change lists them again (a burst: one listing running, one queued); the others are passed on. */
  #watchLists(client: McpClient): void {
    const relist = createCoalescer(() => this.#relistTools(client));
    client.watchLists((kind) => {
      if (kind === "tools") void relist();
      else this.#tell({ alias: this.alias, kind });
    });
  }

  async #relistTools(client: McpClient): Promise<void> {
    const before = this.#state;
    if ((before.kind !== "up" && before.kind !== "down") || before.client !== client) return;
    let tools: RemoteToolInfo[];
    try {
      tools = await client.listTools(this.#deps.listingCap);
    } catch (error) {
      if (this.#state.kind !== "closed") this.#deps.onWarning(`${this.alias}: its tools changed, but listing them again failed: ${this.#redact(describeError(error))}`);
      return;
    }
    // A listing queued behind another often finds what that one found: no change, nothing to tell.
    if (JSON.stringify(tools) === JSON.stringify(before.tools)) return;
    this.#apply({ type: "tools-listed", client, tools });
    if (this.#state.kind === "closed" || this.tools !== tools) return;
    const had = new Set(before.tools.map((tool) => tool.name));
    const has = new Set(tools.map((tool) => tool.name));
    const added = tools.filter((tool) => !had.has(tool.name)).map((tool) => tool.name);
    const removed = before.tools.filter((tool) => !has.has(tool.name)).map((tool) => tool.name);
    this.#tell({ alias: this.alias, kind: "tools", added, removed, count: tools.length });
  }

  #tell(change: ListChange): void {
    for (const listener of this.#listListeners) listener(change);
  }

  async #withClient<T>(send: (client: McpClient) => Promise<T>): Promise<T | McpError> {
    const client = await this.#clientForCall();
    if (client instanceof McpError) return client;
    try {
      const answer = await send(client);
      this.#apply({ type: "call-answered", client });
      return answer;
    } catch (error) {
      const failure = asMcpError(error, "protocol", this.alias);
      // Over HTTP every call is its own request: one that cannot reach the server marks it disconnected, and
      // so does a lost legacy session that could not be renewed.
      if (failure.kind === "unreachable" || isLostSession(failure)) this.#apply({ type: "call-failed", client, reason: failure.message });
      return failure;
    }
  }

  async #clientForCall(): Promise<McpClient | McpError> {
    const state = this.#state;
    const unavailable = (why: string): McpError => new McpError("unavailable", why, { server: this.alias });
    switch (state.kind) {
      case "starting":
        // A call that comes while the server comes up waits for it, rather than reading "reconnecting" as a failure.
        await state.done;
        return this.#clientForCall();
      case "up":
        return state.client;
      case "down":
        if (state.alive) return state.client;
        if (state.restart !== undefined) {
          await state.restart;
          return this.#clientForCall();
        }
        if (this.spec.transport === "stdio" && state.restartsLeft > 0) {
          this.#apply({ type: "restarting", restart: this.#restart(state) });
          return this.#clientForCall();
        }
        return unavailable(`disconnected: ${state.reason}`);
      case "failed":
        return unavailable(`not available: it failed to start: ${state.reason}`);
      case "needs-login":
        return unavailable(`not available: ${state.reason}`);
      case "closed":
        return unavailable("closed: the session is ending");
      default: {
        const unknown: never = state;
        throw new Error(`unknown connection state ${JSON.stringify(unknown)}`);
      }
    }
  }

  async #restart(down: Settled): Promise<McpClient | McpError> {
    const restarted = await restartServer(this.spec, this.#opener, down.era, down.login);
    if (restarted instanceof McpError) {
      this.#apply({ type: "restart-failed", reason: this.#opener.describeFailure(restarted) });
      return restarted;
    }
    this.#apply({ type: "restarted", client: restarted });
    // Closed meanwhile: nobody else will end the child it started.
    if (this.#state.kind === "closed") await restarted.close();
    else this.#watchLists(restarted);
    return restarted;
  }
}

const SHOWN_STATE: Readonly<Record<Exclude<ConnectionState, { readonly kind: "closed" }>["kind"], ServerState>> = {
  starting: "failed",
  up: "connected",
  down: "disconnected",
  "needs-login": "needs login",
  failed: "failed",
};

function errorOf(state: Exclude<ConnectionState, { readonly kind: "closed" }>): string {
  switch (state.kind) {
    case "starting":
      return state.why;
    case "up":
      return "";
    case "down":
    case "needs-login":
    case "failed":
      return state.reason;
    default: {
      const unknown: never = state;
      throw new Error(`unknown connection state ${JSON.stringify(unknown)}`);
    }
  }
}
