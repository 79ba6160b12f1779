// What a server is, as the config names it — one union member per transport — and what follows from that
// alone: where a stdio server runs, the environment it gets, and the secrets its own text may echo. The
// config folder reads the file into these (with `${VAR}` already expanded); they belong here, where they are used.
import { dirname, resolve } from "node:path";
import { createRedactor, INHERITED_ENV_VARIABLES, onlyVariables, secretsIn, withoutModelKeys, type Redact } from "../kernel/index.js";
import type { LogLevel } from "./server-log.js";
import type { MachineGrant } from "./auth/grants.js";

export interface StdioServerConfig {
  readonly alias: string;
  readonly transport: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** The variables the config sets, laid over the environment the server inherits (see `serverEnvironment`). */
  readonly env: Readonly<Record<string, string>>;
  /** The config's explicit opt-in to pass mca's whole environment (the model's keys excepted); absent: the minimal one. */
  readonly inheritEnv?: boolean;
  /** As written in the file (not expanded, not resolved against any directory). */
  readonly cwd?: string;
  /**
   * `false`: the server runs without a PID namespace of its own, where it sees every process of the user
   * (mca's environment included), e.g. for a server that must inspect other processes or run a setuid helper
   * (bubblewrap sets no_new_privs); absent: in one of its own, where bubblewrap works.
   */
  readonly pidNamespace?: boolean;
  /** The cap on one message from the server (one stdout line); the transport's default when absent. */
  readonly maxLineBytes?: number;
  readonly timeoutMs?: number;
  /** The budget of the whole start-up (era, handshake, tool list); STARTUP_TIMEOUT_MS when absent. */
  readonly startupTimeoutMs?: number;
  /** The least severe log message asked of the server; DEFAULT_LOG_LEVEL ("info") when absent. */
  readonly logLevel?: LogLevel;
  readonly roots?: ServerRoots;
  readonly enabled: boolean;
}

/**
 * The folders a server is told it may work in (`roots/list`), as absolute real paths; or `false`: roots are
 * not declared to it at all, so a server such as server-filesystem keeps the folders its own arguments name.
 * Absent: the project folder.
 */
export type ServerRoots = readonly string[] | false;

/**
 * A server reached by URL: over Streamable HTTP ("http"; the old HTTP+SSE transport when the URL answers as
 * that one does), or over the old HTTP+SSE transport of 2024-11-05 as the config says ("sse").
 */
export interface HttpServerConfig {
  readonly alias: string;
  readonly transport: "http" | "sse";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly startupTimeoutMs?: number;
  /** The least severe log message asked of the server; DEFAULT_LOG_LEVEL ("info") when absent. */
  readonly logLevel?: LogLevel;
  /** A client registered with the server's authorization server by hand, and login settings (`${VAR}` expanded). */
  readonly oauth?: OAuthClientConfig;
  readonly roots?: ServerRoots;
  readonly enabled: boolean;
}

export interface OAuthClientConfig {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** The authorization server the client is registered with: the only one its secret goes to unasked. */
  readonly issuer?: string;
  /** Asked for when the server's challenge names no scope. */
  readonly scopes?: readonly string[];
  /** The loopback port the login's redirect comes back to; a free one when absent. */
  readonly callbackPort?: number;
  /** A grant that needs nobody at a browser (docs/oauth.md); the browser login when absent. */
  readonly grant?: MachineGrant;
  /** `private_key_jwt` (RFC 7523 §2.2): the PEM file of the key the client authenticates with, instead of a secret. */
  readonly privateKeyFile?: string;
  /** DPoP (RFC 9449): the PEM file of the key the tokens are bound to. */
  readonly dpopKeyFile?: string;
}

/** The login settings of a server's `oauth` entry as a login takes them (each only when the entry sets it). */
export function loginSettings(oauth: OAuthClientConfig | undefined): {
  readonly client: { readonly clientId?: string; readonly clientSecret?: string; readonly issuer?: string; readonly clientName: string };
  readonly scopes?: string;
  readonly grant?: MachineGrant;
  readonly privateKeyFile?: string;
  readonly dpopKeyFile?: string;
} {
  return {
    client: { clientId: oauth?.clientId, clientSecret: oauth?.clientSecret, issuer: oauth?.issuer, clientName: "mca" },
    ...(oauth?.scopes === undefined ? {} : { scopes: oauth.scopes.join(" ") }),
    ...(oauth?.grant === undefined ? {} : { grant: oauth.grant }),
    ...(oauth?.privateKeyFile === undefined ? {} : { privateKeyFile: oauth.privateKeyFile }),
    ...(oauth?.dpopKeyFile === undefined ? {} : { dpopKeyFile: oauth.dpopKeyFile }),
  };
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** Where a stdio server runs: its relative `cwd` (and the default) is the config file's folder, not wherever mca runs. */
export function stdioServerCwd(spec: StdioServerConfig, configFile: string): string {
  const configDir = dirname(configFile);
  return spec.cwd === undefined ? configDir : resolve(configDir, spec.cwd);
}

/**
 * A stdio server's whole environment: the minimal inherited set (or, with `inheritEnv`, all of mca's), never
 * the model's credentials, then the config's own `env` over it — what the user wrote for this server is passed as written.
 */
export function serverEnvironment(spec: StdioServerConfig, base: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const inherited = spec.inheritEnv === true ? withoutModelKeys(base) : onlyVariables(base, INHERITED_ENV_VARIABLES);
  return { ...inherited, ...spec.env };
}

/** The secrets of one server's own spec: what it is sent (header values) or given (env values) may come back in its text. */
export function specRedactor(spec: McpServerConfig): Redact {
  const grant = spec.transport === "stdio" ? undefined : spec.oauth?.grant;
  const idpSecret = grant?.kind === "token_exchange" ? grant.idp.clientSecret : undefined;
  const secrets =
    spec.transport === "stdio"
      ? Object.values(spec.env)
      : [...Object.values(spec.headers), ...[spec.oauth?.clientSecret, idpSecret].filter((secret): secret is string => secret !== undefined)];
  return createRedactor(secretsIn(secrets));
}
