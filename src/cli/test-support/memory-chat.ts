// runChat on a memory terminal for chat tests: keystrokes go in through `type`, everything shown is in
// `shown()`, the clock is set by `setNow`, and `stop` aborts the session as a SIGTERM would.
import type { Redact } from "../../kernel/index.js";
import { runChat } from "../chat.js";
import type { SessionIo } from "../session-seam.js";
import type { TerminalLender } from "../terminal.js";
import { fakeSession, type FakeSessionParts } from "./fake-session.js";
import { createMemoryTerminal } from "./memory-terminal.js";

export interface MemoryChat {
  readonly status: Promise<number>;
  type(keys: string): void;
  shown(): string;
  setNow(ms: number): void;
  stop(): void;
}

export function startMemoryChat(makeAgent: FakeSessionParts["agent"], onTerminal?: (lend: TerminalLender) => void, redact?: Redact): MemoryChat {
  const terminal = createMemoryTerminal();
  let nowMs = 0;
  const stop = new AbortController();
  const session = fakeSession({
    agent: (io: SessionIo) => makeAgent(io),
    servers: { answerOn: onTerminal ?? (() => undefined) },
    runtime: {
      terminal: { input: () => terminal.input, output: terminal.output, errorOutput: terminal.output, inputIsTerminal: () => true, interactive: () => true },
      now: () => nowMs,
      interrupt: stop.signal,
      ...(redact === undefined ? {} : { redact }),
    },
  });
  const status = runChat(session, undefined);
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
