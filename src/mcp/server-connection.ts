// One configured MCP server over the whole session: it comes up once, and afterwards it is exactly one of
// connected, failed (never came up) or disconnected (came up, then died). This is the one place where a
// thrown McpError becomes a value: calls never throw, a server that is not there gives an McpError naming
// the reason, and its warnings and status name the server once.
import { describeError, type Redact, type ToolArgs } from "../kernel/index.js";
import type { CallToolOutcome } from "./call-result.js";
import { createMcpClient, type CallToolOptions, type McpClient } from "./client.js";
import { answeredWithin, LATE, negotiateEra, type Era } from "./era.js";
import { createOAuthSession, type HttpAuth } from "./auth/oauth-session.js";
import type { TokenStore } from "./auth/token-store.js";
import { createHttpTransport } from "./http/transport.js";
import { clientCapabilities, type InputResponder } from "./input.js";
import { asMcpError, McpError, type JsonObject, type Transport } from "./jsonrpc.js";
import type { LineFramer } from "./line-framer.js";
import { createStdioTransport } from "./stdio-transport.js";
import { createServerLog, DEFAULT_LOG_LEVEL, type ServerLog, type ServerLogEntry } from "./server-log.js";
import { serverEnvironment, specRedactor, stdioServerCwd, type McpServerConfig } from "./server-spec.js";
import type { RemoteToolInfo } from "./tool-list.js";

/** "needs login": an HTTP server that asks for an authorization no stored token answers (`mca mcp login <alias>`). */
export type ServerState = "connected" | "failed" | "disconnected" | "needs login";

/** The shape `/mcp` and `mca mcp list --json` show (DESIGN "Scripting contract"). */
export interface ServerStatus {
  readonly alias: string;
  readonly transport: "stdio" | "http";
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
  /** How the server is reached: its command and arguments, or its URL (redacted where they hold a secret). */
  readonly endpoint?: string;
  /** The server's own names of the tools mounted from it. */
  readonly toolNames?: readonly string[];
  /** HTTP only: how many times the server lost mca's legacy session (a 404) and a new one was started. */
  readonly sessionRenewals?: number;
}

export interface ConnectionDeps {
  readonly clientVersion: string;
  readonly configFile: string;
  /** The environment a stdio server inherits before the config's own `env` is laid over it. */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  /** Sent on every request; defaults to `clientCapabilities(inputResponder.support)`, so it matches what is answered. */
  readonly capabilities?: JsonObject;
  /** Answers `input_required` results of tool calls; without one, such a call ends with what the server needs. */
  readonly inputResponder?: InputResponder;
  /** Each warning names its server: `<alias>: <warning>`. */
  readonly onWarning: (message: string) => void;
  /** Each log message of a server at or above its level, as it arrives (during a call or between calls). */
  readonly onLog?: (entry: ServerLogEntry) => void;
  readonly seams?: TransportSeams;
  /** Where HTTP servers' logins are kept; without it, a server that asks for one simply fails. */
  readonly logins?: LoginDeps;
  /** The most tools one server offers (the user's `mcp.maxToolsPerServer`); MAX_TOOLS_PER_SERVER when absent. */
  readonly maxToolsPerServer?: number;
}

export interface LoginDeps {
  readonly store: TokenStore;
  /** Told each token and client secret, so that the session can keep them out of every output. */
  readonly onSecret?: (secret: string) => void;
}

/** Where tests and the lab's trap versions swap a part: the line framer, or a wrapper around each transport. */
export interface TransportSeams {
  readonly createFramer?: (maxLineBytes: number) => LineFramer;
  readonly wrapTransport?: (transport: Transport, spec: McpServerConfig) => Transport;
}

/**
 * How long a server has to come up — the era settled, the handshake done, its tools listed — unless its
 * config sets `startupTimeoutMs`: a cold `npx -y <server>` takes about 15 s.
 */
export const STARTUP_TIMEOUT_MS = 30_000;
/** A start-up given up because its signal was aborted. */
const STOPPED: unique symbol = Symbol("stopped");

/** A URL as messages show it: without credentials, query or fragment. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export class ServerConnection {
  readonly alias: string;
  /** Applied to what the status and warnings show: a server's own text may echo the secrets of its spec. */
  readonly #redact: Redact;
  /** The client that takes calls; undefined while the server is down. */
  #client: McpClient | undefined;
  /** The client the server last came up with: the status reads its version from it, even once it died. */
  #lastClient: McpClient | undefined;
  #stderrTail: (() => string) | undefined;
  #state: ServerState = "failed";
  #error: string | null = "not started";
  /** Settled once at connect (spec §8: the verdict is per server, and SHOULD be cached); a restart keeps it. */
  #era: Era | undefined;
  #tools: RemoteToolInfo[] = [];
  /** "A stdio server that exits unexpectedly is restarted once, on the next call to it." */
  #restartUsed = false;
  #restart: Promise<McpClient | undefined> | undefined;
  /** Kept across restarts: the messages before a crash are the ones that say why. */
  readonly #log: ServerLog;
  /** The client being opened last: what a start-up over its budget closes. */
  #opening: McpClient | undefined;
  /** Set when a start-up ran out of its budget: nothing more is opened for it. */
  #gaveUp: McpError | undefined;
  #closed = false;
  /** The reconnect under way (`/mcp reconnect`): a second one joins it, a call waits for it. */
  #reconnecting: Promise<void> | undefined;
  /** One login per server, shared by every client it opens (the era probe, restarts). */
  #auth: HttpAuth | undefined;

  constructor(
    readonly spec: McpServerConfig,
    readonly deps: ConnectionDeps,
  ) {
    this.alias = spec.alias;
    this.#redact = specRedactor(spec);
    this.#log = createServerLog(spec.alias, spec.logLevel ?? DEFAULT_LOG_LEVEL, this.#redact, deps.onLog);
  }

  get tools(): readonly RemoteToolInfo[] {
    return this.#tools;
  }

  get state(): ServerState {
    return this.#state;
  }

  /**
   * Discovers the server and lists its tools; never rejects — a failure is recorded with its reason. An
   * abort of `signal` gives up as the start-up budget does (`/mcp reconnect` stopped by Ctrl-C).
   */
  async connect(signal?: AbortSignal): Promise<void> {
    try {
      await this.#withinStartupBudget(async () => {
        const { client, era } = await negotiateEra(() => this.#open(), { transport: this.spec.transport });
        this.#era = era;
        this.#tools = await client.listTools(this.deps.maxToolsPerServer);
      }, signal);
      this.#state = "connected";
      this.#error = null;
    } catch (error) {
      this.#state = error instanceof McpError && error.needsLogin ? "needs login" : "failed";
      this.#error = this.#startFailure(error);
      await this.#client?.close();
      this.#client = undefined;
    }
  }

  /**
   * `/mcp reconnect`: the server as if newly configured — its client closed (a stdio child ends), then
   * discovered and listed again, the era probed afresh and the one restart on a call available again. A
   * login is read anew from the token store, so one made meanwhile (`/mcp login`) is used.
   */
  async reconnect(signal?: AbortSignal): Promise<void> {
    // Two at once share one: a second would close what the first is opening.
    this.#reconnecting ??= this.#reconnectOnce(signal).finally(() => {
      this.#reconnecting = undefined;
    });
    return this.#reconnecting;
  }

  async #reconnectOnce(signal: AbortSignal | undefined): Promise<void> {
    if (this.#closed || signal?.aborted === true) return;
    // A restart under way finishes first, so that what it opens is closed here too.
    await this.#restart;
    this.#restart = undefined;
    // Not "connected" while it comes up again: the old client's end, or an era probe's, is not a disconnect to tell.
    this.#state = "failed";
    this.#error = "reconnecting";
    const old = this.#client;
    this.#client = undefined;
    await old?.close();
    this.#restartUsed = false;
    this.#era = undefined;
    this.#auth = undefined;
    this.#tools = [];
    await this.connect(signal);
  }

  async callTool(name: string, args: ToolArgs, options: CallToolOptions): Promise<CallToolOutcome | McpError> {
    const client = await this.#clientForCall();
    if (client instanceof McpError) return client;
    try {
      const outcome = await client.callTool(name, args, options);
      this.#markAlive();
      return outcome;
    } catch (error) {
      const failure = asMcpError(error, "protocol", this.alias);
      // Over HTTP every call is its own request: one that cannot reach the server marks it disconnected, and
      // so does a lost legacy session that could not be renewed.
      if (failure.kind === "unreachable" || failure.sessionExpired) this.#markDead(failure.message);
      return failure;
    }
  }

  status(): ServerStatus {
    const tail = this.#stderrTail?.() ?? "";
    return {
      alias: this.alias,
      transport: this.spec.transport,
      state: this.#state,
      protocolVersion: this.#state === "failed" || this.#state === "needs login" ? null : (this.#lastClient?.protocolVersion() ?? null),
      tools: this.#tools.length,
      endpoint: this.#redact(this.spec.transport === "stdio" ? [this.spec.command, ...this.spec.args].map((word) => JSON.stringify(word)).join(" ") : this.spec.url),
      toolNames: this.#tools.map((tool) => tool.name),
      error: this.#error === null ? null : this.#redact(this.#error),
      stderrTail: tail === "" ? null : tail,
      recentLogs: this.#log.recent(),
      ...(this.spec.transport === "http" ? { sessionRenewals: this.#lastClient?.sessionRenewals() ?? 0 } : {}),
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.close();
  }

  async #clientForCall(): Promise<McpClient | McpError> {
    // A call that comes while the server is reconnected waits for it, rather than reading "reconnecting" as a failure.
    await this.#reconnecting;
    const unavailable = (why: string): McpError => new McpError("unavailable", why, { server: this.alias });
    if (this.#closed) return unavailable("closed: the session is ending");
    if (this.#state === "failed") return unavailable(`not available: it failed to start: ${this.#error}`);
    if (this.#state === "needs login") return unavailable(`not available: ${this.#error}`);
    if (this.#client) return this.#client;
    if (this.spec.transport === "stdio" && !this.#restartUsed) {
      this.#restartUsed = true;
      // One restart, shared: calls that arrive while it is under way wait for the same one.
      this.#restart = this.#withinStartupBudget(() => this.#open()).catch((error: unknown) => {
        this.#error = `restart failed: ${this.#startFailure(error)}`;
        return undefined;
      });
    }
    const restarted = await this.#restart;
    // The restarted client only while it lives: after a second death it is gone for good.
    if (restarted !== undefined && restarted === this.#client) return restarted;
    return unavailable(`disconnected: ${this.#error}`);
  }

  /**
   * Start-up has its own budget, apart from each request's timeout: past it, the client being opened is
   * closed (which fails whatever it waits for) and the error says what was seen in that time.
   */
  async #withinStartupBudget<T>(startUp: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const budgetMs = this.spec.startupTimeoutMs ?? STARTUP_TIMEOUT_MS;
    this.#gaveUp = undefined;
    const starting = startUp();
    const stopped = new Promise<typeof STOPPED>((resolve) => {
      if (signal?.aborted === true) resolve(STOPPED);
      signal?.addEventListener("abort", () => resolve(STOPPED), { once: true });
    });
    const outcome = await answeredWithin(Promise.race([starting, stopped]), budgetMs);
    if (outcome !== LATE && outcome !== STOPPED) return outcome;
    let reason: McpError;
    if (outcome === STOPPED) {
      reason = new McpError("aborted", "stopped while it came up", { server: this.alias });
    } else {
      const waited = `after ${duration(budgetMs)} (startupTimeoutMs)`;
      const tail = this.#stderrTail?.() ?? "";
      const seen =
        this.spec.transport === "http"
          ? `no answer from ${shownUrl(this.spec.url)} ${waited}`
          : `no answer on stdout ${waited}; ${tail === "" ? "it wrote nothing on stderr" : `its stderr said: ${tail}`}`;
      reason = new McpError("timeout", seen, { server: this.alias });
    }
    // No fresh child either: the era negotiation reads a closed client as a legacy server that died of the probe.
    this.#gaveUp = reason;
    await this.#opening?.close();
    await starting.catch(() => undefined);
    throw reason;
  }

  /** A start-up failure as the status shows it: with what the server wrote on stderr, unless the text has it already. */
  #startFailure(error: unknown): string {
    const text = describeError(error);
    if (this.spec.transport !== "stdio") return text;
    const tail = this.#stderrTail?.() ?? "";
    return tail === "" || text.includes(tail) ? text : `${text}; its stderr said: ${tail}`;
  }

  async #open(): Promise<McpClient> {
    if (this.#gaveUp !== undefined) throw this.#gaveUp;
    const wrap = this.deps.seams?.wrapTransport ?? ((created: Transport) => created);
    // The HTTP transport reads the version in use from the client it serves, for messages that name none.
    let opened: McpClient | undefined;
    const transport = wrap(this.#createTransport(() => opened?.protocolVersion()), this.spec);
    const client = createMcpClient({
      transport,
      clientVersion: this.deps.clientVersion,
      capabilities: this.deps.capabilities ?? clientCapabilities(this.deps.inputResponder?.support),
      requestTimeoutMs: this.spec.timeoutMs,
      ...(this.deps.inputResponder === undefined ? {} : { inputResponder: this.deps.inputResponder }),
      logLevel: this.spec.logLevel ?? DEFAULT_LOG_LEVEL,
      onLog: (params) => this.#log.take(params),
      onWarning: (message) => this.deps.onWarning(`${this.alias}: ${this.#redact(message)}`),
      onClose: (reason) => this.#onClientClosed(client, reason),
    });
    opened = client;
    this.#opening = client;
    try {
      await client.start();
      // A restarted legacy child knows nothing yet: it needs the handshake before any other request.
      if (this.#era === "legacy") await client.initializeLegacy();
    } catch (error) {
      await client.close();
      throw error;
    }
    // Published only once it can take calls, so no call slips in before the handshake.
    this.#client = client;
    this.#lastClient = client;
    return client;
  }

  #createTransport(protocolVersion: () => string | undefined): Transport {
    const { spec, deps } = this;
    switch (spec.transport) {
      case "stdio": {
        const transport = createStdioTransport({
          label: spec.alias,
          command: spec.command,
          args: spec.args,
          env: serverEnvironment(spec, deps.baseEnv),
          cwd: stdioServerCwd(spec, deps.configFile),
          ...(spec.maxLineBytes === undefined ? {} : { maxLineBytes: spec.maxLineBytes }),
          ...(deps.seams?.createFramer === undefined ? {} : { createFramer: deps.seams.createFramer }),
          redact: this.#redact,
        });
        this.#stderrTail = () => transport.stderrTail();
        return transport;
      }
      case "http":
        return createHttpTransport({ label: spec.alias, url: spec.url, headers: spec.headers, protocolVersion, auth: this.#login() });
      default: {
        const unknown: never = spec;
        throw new Error(`unknown transport in ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Never interactive here: a server that needs a browser login says so, and `mca mcp login` gives it one. */
  #login(): HttpAuth | undefined {
    const { spec } = this;
    const logins = this.deps.logins;
    if (spec.transport !== "http" || logins === undefined) return undefined;
    this.#auth ??= createOAuthSession({
      label: spec.alias,
      serverUrl: spec.url,
      store: logins.store,
      client: { clientId: spec.oauth?.clientId, clientSecret: spec.oauth?.clientSecret, clientName: "mca" },
      scopes: spec.oauth?.scopes?.join(" "),
      ...(logins.onSecret === undefined ? {} : { onSecret: logins.onSecret }),
    });
    return this.#auth;
  }

  #onClientClosed(client: McpClient, reason: McpError): void {
    // A client replaced by a restart, or our own close at shutdown, says nothing about the server now.
    if (this.#closed || client !== this.#client) return;
    this.#client = undefined;
    this.#markDead(reason.message);
  }

  #markDead(reason: string): void {
    if (this.#state === "failed" || this.#state === "needs login") return;
    // Told when it happens, not only in /mcp: the next call restarts a stdio server once.
    if (this.#state === "connected") this.deps.onWarning(`${this.alias}: disconnected: ${this.#redact(reason)}`);
    this.#state = "disconnected";
    this.#error = reason;
  }

  #markAlive(): void {
    this.#state = "connected";
    this.#error = null;
  }
}
