// One configured MCP server over the whole session: it comes up once, and afterwards it is exactly one of
// connected, failed (never came up) or disconnected (came up, then died). Calls never throw: a server
// that is not there gives an McpError value naming it and the reason.
import { dirname, resolve } from "node:path";
import type { McpServerConfig, StdioServerConfig } from "../config/index.js";
import type { ToolArgs } from "../kernel/index.js";
import type { CallToolOutcome } from "./call-outcome.js";
import { createMcpClient, type CallToolOptions, type McpClient } from "./client.js";
import { observeClose } from "./close-observer.js";
import { McpError } from "./errors.js";
import { createHttpTransport } from "./http-transport.js";
import type { InputResponder } from "./input-required.js";
import { clientCapabilities } from "./input-support.js";
import type { JsonObject } from "./jsonrpc.js";
import { negotiateEra, type Era } from "./negotiate-era.js";
import type { LineFramer } from "./line-framer.js";
import type { RemoteToolInfo } from "./remote-tool.js";
import { createStdioTransport } from "./stdio-transport.js";
import type { Transport } from "./transport.js";

export type ServerState = "connected" | "failed" | "disconnected";

/** The shape `/mcp` and `mca mcp list --json` show (DESIGN "Scripting contract"). */
export interface ServerStatus {
  readonly alias: string;
  readonly transport: "stdio" | "http";
  readonly state: ServerState;
  readonly protocolVersion: string | null;
  readonly tools: number;
  readonly error: string | null;
  readonly stderrTail: string | null;
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
  readonly onWarning: (message: string) => void;
  readonly seams?: TransportSeams;
}

/** Where tests and the lab's trap versions swap a part: the line framer, or a wrapper around each transport. */
export interface TransportSeams {
  readonly createFramer?: (maxLineBytes: number) => LineFramer;
  readonly wrapTransport?: (transport: Transport, spec: McpServerConfig) => Transport;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where a stdio server runs: its relative `cwd` (and the default) is the config file's folder, not wherever mca runs. */
export function stdioServerCwd(spec: StdioServerConfig, configFile: string): string {
  const configDir = dirname(configFile);
  return spec.cwd === undefined ? configDir : resolve(configDir, spec.cwd);
}

function mergedEnv(base: ConnectionDeps["baseEnv"], own: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  return { ...env, ...own };
}

export class ServerConnection {
  readonly alias: string;
  #client: McpClient | undefined;
  #transport: Transport | undefined;
  #stderrTail: (() => string) | undefined;
  #state: ServerState = "failed";
  #error: string | null = "not started";
  #protocolVersion: string | null = null;
  /** Settled once at connect (spec §8: the verdict is per server, and SHOULD be cached); a restart keeps it. */
  #era: Era | undefined;
  #tools: RemoteToolInfo[] = [];
  /** "A stdio server that exits unexpectedly is restarted once, on the next call to it." */
  #restartUsed = false;
  #restart: Promise<McpClient | undefined> | undefined;
  #closed = false;

  constructor(
    readonly spec: McpServerConfig,
    readonly deps: ConnectionDeps,
  ) {
    this.alias = spec.alias;
  }

  get tools(): readonly RemoteToolInfo[] {
    return this.#tools;
  }

  get state(): ServerState {
    return this.#state;
  }

  /** Discovers the server and lists its tools; never rejects — a failure is recorded with its reason. */
  async connect(): Promise<void> {
    try {
      const { client, era, protocolVersion } = await negotiateEra(() => this.#open(), { transport: this.spec.transport });
      this.#era = era;
      this.#protocolVersion = protocolVersion;
      this.#tools = await client.listTools();
      this.#state = "connected";
      this.#error = null;
    } catch (error) {
      this.#state = "failed";
      this.#error = describe(error);
      await this.#client?.close();
      this.#client = undefined;
    }
  }

  async callTool(name: string, args: ToolArgs, options: CallToolOptions): Promise<CallToolOutcome | McpError> {
    const client = await this.#clientForCall();
    if (client instanceof McpError) return client;
    try {
      const outcome = await client.callTool(name, args, options);
      this.#markAlive();
      return outcome;
    } catch (error) {
      const failure = error instanceof McpError ? error : new McpError("protocol", `${this.alias}: ${describe(error)}`);
      // Over HTTP every call is its own request: one that cannot reach the server marks it disconnected.
      if (failure.kind === "unreachable") this.#markDead(failure.message);
      return failure;
    }
  }

  status(): ServerStatus {
    const tail = this.#stderrTail?.() ?? "";
    return {
      alias: this.alias,
      transport: this.spec.transport,
      state: this.#state,
      protocolVersion: this.#protocolVersion,
      tools: this.#tools.length,
      error: this.#error,
      stderrTail: tail === "" ? null : tail,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.close();
  }

  async #clientForCall(): Promise<McpClient | McpError> {
    const unavailable = (why: string): McpError =>
      new McpError("closed", `MCP server "${this.alias}" is ${why.replaceAll(`${this.alias}: `, "")}`);
    if (this.#closed) return unavailable("closed: the session is ending");
    if (this.#state === "failed") return unavailable(`not available: it failed at start-up: ${this.#error}`);
    if (this.#client) return this.#client;
    if (this.spec.transport === "stdio" && !this.#restartUsed) {
      this.#restartUsed = true;
      // One restart, shared: calls that arrive while it is under way wait for the same one.
      this.#restart = this.#open().catch((error: unknown) => {
        this.#error = `restart failed: ${describe(error)}`;
        return undefined;
      });
    }
    const restarted = await this.#restart;
    // The restarted client only while it lives: after a second death it is gone for good.
    if (restarted !== undefined && restarted === this.#client) return restarted;
    return unavailable(`disconnected: ${this.#error}`);
  }

  async #open(): Promise<McpClient> {
    const wrap = this.deps.seams?.wrapTransport ?? ((created: Transport) => created);
    const transport = observeClose(wrap(this.#createTransport(), this.spec), (reason) => this.#onTransportClosed(transport, reason));
    const client = createMcpClient({
      transport,
      clientVersion: this.deps.clientVersion,
      capabilities: this.deps.capabilities ?? clientCapabilities(this.deps.inputResponder?.support),
      requestTimeoutMs: this.spec.timeoutMs,
      onWarning: this.deps.onWarning,
    });
    this.#transport = transport;
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
    return client;
  }

  #createTransport(): Transport {
    const { spec, deps } = this;
    switch (spec.transport) {
      case "stdio": {
        const transport = createStdioTransport({
          label: spec.alias,
          command: spec.command,
          args: spec.args,
          env: mergedEnv(deps.baseEnv, spec.env),
          cwd: stdioServerCwd(spec, deps.configFile),
          onWarning: deps.onWarning,
          ...(spec.maxLineBytes === undefined ? {} : { maxLineBytes: spec.maxLineBytes }),
          ...(deps.seams?.createFramer === undefined ? {} : { createFramer: deps.seams.createFramer }),
        });
        this.#stderrTail = () => transport.stderrTail();
        return transport;
      }
      case "http":
        return createHttpTransport({ label: spec.alias, url: spec.url, headers: spec.headers });
      default: {
        const unknown: never = spec;
        throw new Error(`unknown transport in ${JSON.stringify(unknown)}`);
      }
    }
  }

  #onTransportClosed(transport: Transport, reason: Error): void {
    // A transport replaced by a restart, or our own close at shutdown, says nothing about the server now.
    if (this.#closed || transport !== this.#transport) return;
    this.#client = undefined;
    this.#markDead(reason.message);
  }

  #markDead(reason: string): void {
    if (this.#state === "failed") return;
    this.#state = "disconnected";
    this.#error = reason;
  }

  #markAlive(): void {
    this.#state = "connected";
    this.#error = null;
  }
}
