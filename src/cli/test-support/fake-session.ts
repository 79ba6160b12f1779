// A Session for unit tests of the modes and commands: the agent a test makes (attached as the real one is,
// through the session's switchboard, its events redacted, with /last and /cost read from them), servers and a model that
// do what the test says, and a runtime that keeps what is written. Whatever the test leaves out behaves as a
// run without servers, on the offline model, with no terminal.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../../kernel/index.js";
import type { Mentions } from "../mentions.js";
import type { Runtime, RuntimeTerminal } from "../runtime.js";
import { sessionEvents } from "../session.js";
import type { Session, SessionIo, SessionServers } from "../session-seam.js";
import type { SessionModel } from "../session-model.js";
import { NO_SERVERS_MESSAGE } from "../mcp-servers.js";

/** One folder per test file for the sessions' project and state (input history): removed at exit. */
const scratch = mkdtempSync(join(tmpdir(), "mca-fake-session-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

export interface FakeSessionParts {
  /** Makes the agent, given what forwards its approvals and events to the mode attached. */
  readonly agent: (io: SessionIo) => Agent;
  readonly servers?: Partial<SessionServers>;
  readonly model?: Partial<SessionModel>;
  readonly mentions?: Mentions;
  readonly runtime?: Partial<Runtime>;
  readonly projectDir?: string;
}

export interface FakeSession extends Session {
  /** What the session wrote on stdout and stderr through its runtime. */
  readonly written: { readonly out: string[]; readonly err: string[] };
}

export function fakeSession(parts: FakeSessionParts): FakeSession {
  const written = { out: [] as string[], err: [] as string[] };
  const runtime = fakeRuntime(parts.runtime, written);
  const events = sessionEvents(runtime.redact);
  const agent = parts.agent({ approve: events.approve, emit: events.emit });
  const projectDir = parts.projectDir ?? scratch;
  return {
    id: "20261206-000000-1",
    projectDir,
    state: { projectDir, dir: join(scratch, "state") },
    banner: "mca test banner",
    agent,
    attach: events.attach,
    model: { answering: { name: "fake-model", complete: () => Promise.reject(new Error("the fake model answers nothing")) }, switchTo: async () => new Error("the fake model cannot switch"), countTokens: undefined, refusal: null, ...parts.model },
    servers: { ...noServers(), ...parts.servers },
    mentions: parts.mentions ?? noMentions(),
    lastResult: events.lastResult,
    costs: events.costs,
    runtime,
    written,
  };
}

/** The servers of a run that configures none. */
export function noServers(): SessionServers {
  return {
    statuses: () => [],
    noneLine: NO_SERVERS_MESSAGE,
    appOnlyTools: () => [],
    reconnect: async () => new Error(NO_SERVERS_MESSAGE),
    login: async () => 1,
    prompts: () => ({ current: () => [], settled: async () => [], refresh: async () => undefined }),
    answerOn: () => undefined,
    stopListing: () => undefined,
  };
}

/** Mentions that attach nothing: the prompt goes as typed. */
function noMentions(): Mentions {
  return {
    attach: async (text) => ({ text, images: [], lines: [] }),
    complete: () => [],
    question: () => undefined,
    apps: async () => new Map(),
    refresh: () => undefined,
  };
}

/** A runtime that keeps what is written, on no terminal, never stopped unless the test's overrides say so. */
export function fakeRuntime(overrides: Partial<Runtime> = {}, written: { readonly out: string[]; readonly err: string[] } = { out: [], err: [] }): Runtime {
  const terminal: RuntimeTerminal = {
    input: () => {
      throw new Error("this fake session has no terminal input");
    },
    output: process.stdout,
    errorOutput: process.stderr,
    inputIsTerminal: () => false,
    interactive: () => false,
  };
  return {
    env: {},
    terminal,
    now: Date.now,
    version: "0.0.0-test",
    writeOut: (text) => void written.out.push(text),
    writeErr: (text) => void written.err.push(text),
    warn: (text) => void written.err.push(`${text}\n`),
    redact: (text) => text,
    addSecret: () => undefined,
    interrupt: new AbortController().signal,
    addCloser: () => undefined,
    atExit: () => undefined,
    showWarningsIn: () => undefined,
    exitWith: () => undefined,
    ...overrides,
  };
}
