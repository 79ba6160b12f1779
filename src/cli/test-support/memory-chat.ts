// runChat on a memory terminal for chat tests: keystrokes go in through `type`, everything shown is in
// `shown()`, the clock is set by `setNow`, and `stop` aborts the session as a SIGTERM would.
import { runChat, type ChatDeps } from "../chat.js";
import { createMemoryTerminal } from "./memory-terminal.js";

export interface MemoryChat {
  readonly status: Promise<number>;
  type(keys: string): void;
  shown(): string;
  setNow(ms: number): void;
  stop(): void;
}

export function startMemoryChat(makeAgent: ChatDeps["makeAgent"], onTerminal?: ChatDeps["onTerminal"]): MemoryChat {
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
    ...(onTerminal === undefined ? {} : { onTerminal }),
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
