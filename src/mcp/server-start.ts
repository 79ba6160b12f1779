// Bringing one configured server up: wires opened on fresh transports (every wire of one start sharing one
// login), the era settled on them and its client built, the tools listed — all within the start-up budget. A start never throws:
// it gives back what came up, or the McpError that says why nothing did.
import { describeError, type Redact } from "../kernel/index.js";
import { createOAuthSession, type HttpAuth } from "./auth/oauth-session.js";
import type { McpClient } from "./client.js";
import { answeredWithin, clientInEra, LATE, negotiateEra, type Era, type NegotiatedEra } from "./era.js";
import { HttpFailure, shownUrl } from "./http/failure.js";
import { createLegacySseTransport } from "./http/legacy-sse-transport.js";
import { createHttpTransport } from "./http/transport.js";
import type { TokenStore } from "./auth/token-store.js";
import { clientCapabilities, type InputResponder } from "./input.js";
import { createHeaderTable, type HeaderTable } from "./http/headers.js";
import { asMcpError, McpError, type JsonObject, type Transport } from "./jsonrpc.js";
import type { LineFramer } from "./line-framer.js";
import { serverResponder } from "./roots.js";
import { DEFAULT_LOG_LEVEL, type ServerLog, type ServerLogEntry } from "./server-log.js";
import { loginSettings, serverEnvironment, stdioServerCwd, type McpServerConfig } from "./server-spec.js";
import { createStdioTransport, type StdioLauncher } from "./stdio-transport.js";
import type { ListingCap, RemoteToolInfo } from "./tool-list.js";
import { createWire, type Wire } from "./wire.js";

/**
 * How long a server has to come up — the era settled, the handshake done, its tools listed — unless its
 * config sets `startupTimeoutMs`: a cold `npx -y <server>` takes about 15 s.
 */
export const STARTUP_TIMEOUT_MS = 30_000;
/** What every connection of a session shares: who mca is, where servers run, and where their words go. */
export interface ConnectionDeps {
  readonly clientVersion: string;
  readonly configFile: string;
  /** The environment a stdio server inherits before the config's own `env` is laid over it. */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  /**
   * Sent on every request; defaults to `clientCapabilities` of what the responder answers this server (its
   * config's `"roots": false` taking roots away), so that it matches what is answered.
   */
  readonly capabilities?: JsonObject;
  /** Answers `input_required` results of tool calls; without one, such a call ends with what the server needs. */
  readonly inputResponder?: InputResponder;
  /** Each warning names its server: `<alias>: <warning>`. */
  readonly onWarning: (message: string) => void;
  /** Each log message of a server at or above its level, as it arrives (during a call or between calls). */
  readonly onLog?: (entry: ServerLogEntry) => void;
  readonly seams?: TransportSeams;
  /** What runs a stdio server's command (a PID namespace of its own); absent: the command is spawned as it is. */
  readonly stdioLauncher?: StdioLauncher;
  /** Where HTTP servers' logins are kept; without it, a server that asks for one simply fails. */
  readonly logins?: LoginDeps;
  /** What of the server's listing is mounted: the user's `mcp.maxToolsPerServer`, and the config's limit on this server's tools. */
  readonly listingCap?: ListingCap;
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

/** A start-up given up because its signal was aborted. */
const STOPPED: unique symbol = Symbol("stopped");

/** How a server's messages travel: the config's transport, or the old HTTP+SSE one an "http" URL answered as. */
export type ServerTransport = McpServerConfig["transport"];

/** What a start brought up. The login is the one its wires share; a restart of the same server keeps it. */
export interface Started {
  readonly client: McpClient;
  readonly era: Era;
  readonly transport: ServerTransport;
  /** The transport is not the config's but the one the URL answered as (an "http" URL that serves the old HTTP+SSE). */
  readonly detected: boolean;
  readonly tools: RemoteToolInfo[];
  readonly login: HttpAuth | undefined;
}

export interface ServerOpener {
  /** A login for one start, read anew from the token store; undefined for stdio or without a store. */
  newLogin(): HttpAuth | undefined;
  /** A start-up failure as the status shows it: with what the server wrote on stderr, unless the text has it already. */
  describeFailure(error: McpError): string;
  /** The tail of the latest child's stderr ("" for HTTP, or before any child). */
  stderrTail(): string;
  /**
   * A client on a fresh wire (`via`, the config's transport by default): of `era` when it is known (a
   * restart, or the old HTTP+SSE transport: a legacy one after the handshake), else of the era negotiated
   * first. `watch` is asked before each wire is built and told of it before it starts.
   */
  open(era: Era | undefined, login: HttpAuth | undefined, watch: WireWatch, via?: ServerTransport): Promise<NegotiatedEra>;
}

/** How a start's budget follows the wires it opens. */
interface WireWatch {
  /**
   * Asked before anything of a wire is built; throws to refuse it. Nothing is spawned then, and the stderr
   * tail stays the last child's: what it wrote before a start was given up is what the failure shows.
   */
  mayOpen(): void;
  /** Told of each wire before it starts, so that a budget run out can close it. */
  opened(wire: Wire): void;
}

export interface OpenerDeps {
  readonly spec: McpServerConfig;
  readonly deps: ConnectionDeps;
  readonly redact: Redact;
  readonly log: ServerLog;
  /** A client ended on its own (its child exited, its transport gave up). */
  readonly onClientClosed: (client: McpClient, reason: McpError) => void;
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function createServerOpener({ spec, deps, redact, log, onClientClosed }: OpenerDeps): ServerOpener {
  let stderrTail: () => string = () => "";
  const responder = deps.inputResponder === undefined ? undefined : serverResponder(deps.inputResponder, spec);

  /** `headerTable`: the wire's and the HTTP transport's, so that the version in use and a call's `Mcp-Param-*` go on its headers. */
  function createTransport(via: ServerTransport, headerTable: HeaderTable, login: HttpAuth | undefined): Transport {
    if (spec.transport === "stdio") {
      const transport = createStdioTransport({
        label: spec.alias,
        command: spec.command,
        args: spec.args,
        env: serverEnvironment(spec, deps.baseEnv),
        cwd: stdioServerCwd(spec, deps.configFile),
        ...(spec.maxLineBytes === undefined ? {} : { maxLineBytes: spec.maxLineBytes }),
        ...(deps.seams?.createFramer === undefined ? {} : { createFramer: deps.seams.createFramer }),
        ...(deps.stdioLauncher === undefined || spec.pidNamespace === false ? {} : { launcher: deps.stdioLauncher }),
        redact,
      });
      stderrTail = () => transport.stderrTail();
      return transport;
    }
    const common = { label: spec.alias, url: spec.url, headers: spec.headers, headerTable, auth: login };
    return via === "sse" ? createLegacySseTransport(common) : createHttpTransport(common);
  }

  async function open(era: Era | undefined, login: HttpAuth | undefined, watch: WireWatch, via = spec.transport): Promise<NegotiatedEra> {
    /** The client built at the end: a wire that ends on its own is reported as its end; none while the era is settled. */
    let client: McpClient | undefined;
    const openWire = async (): Promise<Wire> => {
      watch.mayOpen();
      const wrap = deps.seams?.wrapTransport ?? ((created: Transport) => created);
      const headerTable = createHeaderTable();
      const transport = wrap(createTransport(via, headerTable, login), spec);
      const wire = createWire({
        transport,
        headerTable,
        clientVersion: deps.clientVersion,
        capabilities: deps.capabilities ?? clientCapabilities(responder?.support),
        requestTimeoutMs: spec.timeoutMs,
        ...(responder === undefined ? {} : { inputResponder: responder }),
        logLevel: spec.logLevel ?? DEFAULT_LOG_LEVEL,
        onLog: (params) => log.take(params),
        onWarning: (message) => deps.onWarning(`${spec.alias}: ${redact(message)}`),
        onClose: (reason) => {
          if (client !== undefined) onClientClosed(client, reason);
        },
      });
      watch.opened(wire);
      try {
        await wire.start();
      } catch (error) {
        await wire.close();
        throw error;
      }
      return wire;
    };
    // A known era (a restart, the old HTTP+SSE transport) is not negotiated again, but a fresh server is still asked
    // what it is: a legacy one needs the handshake before any other request, and a 2026 one is asked
    // server/discover, since it may declare other capabilities than the one it replaces.
    const opened = era === undefined ? await negotiateEra(openWire, { transport: via === "stdio" ? "stdio" : "http" }) : { era, client: await clientInEra(await openWire(), era) };
    client = opened.client;
    return opened;
  }

  /** Never interactive here: a server that needs a browser login says so, and `mca mcp login` gives it one. */
  function newLogin(): HttpAuth | undefined {
    const logins = deps.logins;
    if (spec.transport === "stdio" || logins === undefined) return undefined;
    return createOAuthSession({
      label: spec.alias,
      serverUrl: spec.url,
      store: logins.store,
      ...loginSettings(spec.oauth),
      ...(logins.onSecret === undefined ? {} : { onSecret: logins.onSecret }),
    });
  }

  function describeFailure(error: McpError): string {
    const text = describeError(error);
    if (spec.transport !== "stdio") return text;
    const tail = stderrTail();
    return tail === "" || text.includes(tail) ? text : `${text}; its stderr said: ${tail}`;
  }

  return { newLogin, describeFailure, stderrTail: () => stderrTail(), open };
}

/**
 * Start-up has its own budget, apart from each request's timeout: past it (or once `signal` aborts), the
 * wire being opened is closed (which fails whatever it waits for), nothing more is opened, and the error
 * says what was seen in that time.
 */
async function withinStartupBudget<T>(
  spec: McpServerConfig,
  opener: ServerOpener,
  startUp: (open: (era?: Era, via?: ServerTransport) => Promise<NegotiatedEra>) => Promise<T>,
  login: HttpAuth | undefined,
  signal: AbortSignal | undefined,
): Promise<T | McpError> {
  let opening: Wire | undefined;
  let gaveUp: McpError | undefined;
  const watch: WireWatch = {
    mayOpen() {
      // No fresh child either: the era negotiation reads a closed wire as a legacy server that died of the probe.
      if (gaveUp !== undefined) throw gaveUp;
    },
    opened(wire) {
      opening = wire;
    },
  };
  const open = (era?: Era, via?: ServerTransport): Promise<NegotiatedEra> => opener.open(era, login, watch, via);
  const budgetMs = spec.startupTimeoutMs ?? STARTUP_TIMEOUT_MS;
  const starting = startUp(open);
  const stopped = new Promise<typeof STOPPED>((resolve) => {
    if (signal?.aborted === true) resolve(STOPPED);
    signal?.addEventListener("abort", () => resolve(STOPPED), { once: true });
  });
  let outcome: T | typeof LATE | typeof STOPPED;
  try {
    outcome = await answeredWithin(Promise.race([starting, stopped]), budgetMs);
  } catch (error) {
    return asMcpError(error, "protocol", spec.alias);
  }
  if (outcome !== LATE && outcome !== STOPPED) return outcome;
  gaveUp = outcome === STOPPED ? new McpError("aborted", "stopped while it came up", { server: spec.alias }) : budgetRunOut(spec, opener, budgetMs);
  await opening?.close();
  await starting.catch(() => undefined);
  return gaveUp;
}

function budgetRunOut(spec: McpServerConfig, opener: ServerOpener, budgetMs: number): McpError {
  const waited = `after ${duration(budgetMs)} (startupTimeoutMs)`;
  const tail = opener.stderrTail();
  const seen =
    spec.transport !== "stdio"
      ? `no answer from ${shownUrl(spec.url)} ${waited}`
      : `no answer on stdout ${waited}; ${tail === "" ? "it wrote nothing on stderr" : `its stderr said: ${tail}`}`;
  return new McpError("timeout", seen, { server: spec.alias });
}

/** Discovers the server (its era, then its handshake if legacy) and lists its tools, with a fresh login. */
export async function startServer(
  spec: McpServerConfig,
  opener: ServerOpener,
  options: { readonly signal?: AbortSignal; readonly cap?: ListingCap | undefined },
): Promise<Started | McpError> {
  const login = opener.newLogin();
  return withinStartupBudget(
    spec,
    opener,
    async (open) => {
      const { client, era, transport, detected } = await connect(spec, open);
      try {
        return { client, era, transport, detected, tools: await client.listTools(options.cap), login };
      } catch (error) {
        await client.close();
        throw error;
      }
    },
    login,
    options.signal,
  );
}

type Connected = { readonly client: McpClient; readonly era: Era; readonly transport: ServerTransport; readonly detected: boolean };

/**
 * The era settled on the config's transport. The old HTTP+SSE transport is a 2024-11-05 one: it goes straight to
 * the handshake. An "http" URL that refuses the POST may serve that old transport instead
 * (https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#backwards-compatibility): "If it
 * fails with an HTTP 4xx status code (e.g., 405 Method Not Allowed or 404 Not Found): Issue a GET request to
 * the server URL, expecting that this will open an SSE stream and return an endpoint event as the first
 * event." A 401 or 403 asks for a login, never for another transport.
 */
async function connect(spec: McpServerConfig, open: (era?: Era, via?: ServerTransport) => Promise<NegotiatedEra>): Promise<Connected> {
  if (spec.transport === "sse") return { ...(await open("legacy")), transport: "sse", detected: false };
  const { transport } = spec;
  try {
    return { ...(await open()), transport, detected: false };
  } catch (error) {
    const status = error instanceof HttpFailure ? error.status : 0;
    if (transport !== "http" || !(error instanceof McpError) || status < 400 || status >= 500 || status === 401 || status === 403) throw error;
    try {
      return { ...(await open("legacy", "sse")), transport: "sse", detected: true };
    } catch (sseError) {
      const why = `a GET there found no old HTTP+SSE transport either: ${describeError(sseError)}`;
      throw new McpError(error.kind, `${error.message}; ${why}`, { server: spec.alias });
    }
  }
}

/** A fresh child for a stdio server that died, in the era it was settled in; the same budget as a start. */
export function restartServer(spec: McpServerConfig, opener: ServerOpener, era: Era, login: HttpAuth | undefined): Promise<McpClient | McpError> {
  return withinStartupBudget(spec, opener, async (open) => (await open(era)).client, login, undefined);
}
