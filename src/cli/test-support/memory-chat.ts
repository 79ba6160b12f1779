// runChat on a memory terminal for chat tests: keystrokes go in through `type`, everything shown is in
// `shown()`, the clock is set by `setNow`, and `stop` aborts the session as a SIGTERM would.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChat, type ChatDeps } from "../chat.js";
import { createMemoryTerminal } from "./memory-terminal.js";

export interface MemoryChat {
  readonly status: Promise<number>;
  type(keys: string): void;
  shown(): string;
  setNow(ms: number): void;
  stop(): void;
}

/** One folder per test file for the chats' project and config (their input history): removed at exit. */
const scratch = mkdtempSync(join(tmpdir(), "mca-memory-chat-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

export function startMemoryChat(makeAgent: ChatDeps["makeAgent"], onTerminal?: ChatDeps["onTerminal"], redact?: ChatDeps["redact"]): MemoryChat {
  const terminal = createMemoryTerminal();
  let nowMs = 0;
  const stop = new AbortController();
  const status = runChat({
    makeAgent,
    servers: () => [],
    input: terminal.input,
    output: terminal.output,
    errorOutput: terminal.output,
    color: false,
    banner: "mca test banner",
    nowMs: () => nowMs,
    signal: stop.signal,
    projectDir: scratch,
    state: { projectDir: scratch, dir: join(scratch, "state") },
    env: {},
    ...(onTerminal === undefined ? {} : { onTerminal }),
    ...(redact === undefined ? {} : { redact }),
  });
  return {
    status,
    type: terminal.type,
    shown: terminal.shown,
    setNow: (ms) => {
      nowMs = ms;
    },
    stop: () => stop.abort(),
  };
}
