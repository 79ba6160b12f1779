// runChat on a memory terminal for chat tests: keystrokes go in through `type`, everything shown is in
// `shown()`, the clock is set by `setNow`, and `stop` aborts the session as a SIGTERM would.
import type { Redact } from "../../kernel/index.js";
import { runChat } from "../chat.js";
import type { TerminalLender } from "../terminal.js";
import { fakeSession, type FakeSessionParts } from "./fake-session.js";
import { createMemoryTerminal } from "./memory-terminal.js";

export interface MemoryChat {
  readonly status: Promise<number>;
  type(keys: string): void;
  shown(): string;
  setNow(ms: number): void;
  stop(): void;
  /** Where the run's warnings were sent, in order: "chat" while the chat shows them, "stderr" once it gave them back. */
  warningsShownIn(): readonly string[];
  /** Whether a mode is attached to the chat's session now. */
  attached(): boolean;
}

export function startMemoryChat(agent: FakeSessionParts["agent"], onTerminal?: (lend: TerminalLender) => void, redact?: Redact): MemoryChat {
  const terminal = createMemoryTerminal();
  let nowMs = 0;
  const stop = new AbortController();
  const shownIn: string[] = [];
  const session = fakeSession({
    agent,
    servers: { answerOn: onTerminal ?? (() => undefined) },
    runtime: {
      terminal: { input: () => terminal.input, output: terminal.output, errorOutput: terminal.output, inputIsTerminal: () => true, interactive: () => true },
      now: () => nowMs,
      interrupt: stop.signal,
      showWarningsIn: (show) => void shownIn.push(show === null ? "stderr" : "chat"),
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
    warningsShownIn: () => shownIn,
    attached: () => {
      try {
        session.attach({ approve: async () => "deny", emit: () => undefined })();
        return false;
      } catch {
        return true;
      }
    },
  };
}
