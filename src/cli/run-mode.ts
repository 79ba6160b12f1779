// The mode a run works in once its session is set up: `mca tools` and `mca call` once, -p and pipe mode
// line by line without a terminal, or the chat on one. Each stops when the runtime's interrupt is aborted.
import { createInterface } from "node:readline";
import type { SessionMode } from "../session/index.js";
import type { HeadlessFlags } from "./pipe-mode.js";
import { USAGE_EXIT_CODE, type Invocation } from "./program.js";
import type { Runtime, RuntimeTerminal } from "./runtime.js";
import type { Session } from "./session-seam.js";

/** An invocation that runs a mode: a session, `mca tools` or `mca call`. */
export type ModeInvocation = Extract<Invocation, { kind: "session" | "tools" | "call" | "context" }>;
type SessionInvocation = Extract<ModeInvocation, { kind: "session" }>;

/** How the session's transcript names the run, for `mca sessions` and `--resume`. */
export function sessionMode(invocation: ModeInvocation, terminal: RuntimeTerminal): SessionMode {
  if (invocation.kind !== "session") return "call";
  if (invocation.print) return "print";
  if (terminal.inputIsTerminal()) return "chat";
  // `mca "<prompt>"` without a terminal is `mca -p "<prompt>"`: its stdin is the prompt's context, not more lines.
  return invocation.prompt === undefined ? "pipe" : "print";
}

/** Runs the session in the mode the invocation names; the prompts' listings still running when it ends stop without a word. */
export async function runMode(session: Session, invocation: ModeInvocation): Promise<number> {
  switch (invocation.kind) {
    case "tools": {
      const { runToolsCommand } = await import("./subcommands.js");
      return runToolsCommand(session, invocation.json);
    }
    case "call": {
      const { runCallCommand } = await import("./subcommands.js");
      return runCallCommand(session, invocation.tool, invocation.args, invocation.json);
    }
    case "context": {
      const { runContextCommand } = await import("./subcommands.js");
      return runContextCommand(session, invocation.json);
    }
    case "session": {
      // Listed in the background from now on, so that the session starts as soon.
      session.servers.prompts();
      try {
        return await runSession(session, invocation);
      } finally {
        session.servers.stopListing();
      }
    }
    default: {
      const unknown: never = invocation;
      throw new Error(`unhandled invocation ${JSON.stringify(unknown)}`);
    }
  }
}

/** What the command line asked of the output of a run without a terminal. */
function headlessFlags(invocation: SessionInvocation): HeadlessFlags {
  return {
    outputFormat: invocation.outputFormat,
    includePartialMessages: invocation.includePartialMessages === true,
    mcaEvents: invocation.mcaEvents === true,
    outputSchemaFile: invocation.outputSchemaFile,
    permissionMode: invocation.options.permissionMode ?? "default",
  };
}

/** Pipe mode and `-p` without a terminal, else the chat. */
async function runSession(session: Session, invocation: SessionInvocation): Promise<number> {
  const { runtime } = session;
  const continueWith = `mca --resume ${session.id} continues it`;
  const mode = sessionMode(invocation, runtime.terminal);
  if (mode === "chat") {
    const { runChat } = await import("./chat.js");
    const code = await runChat(session, invocation.prompt);
    runtime.writeOut(`session ${session.id} · ${continueWith}\n`);
    return code;
  }
  const { runPipeMode } = await import("./pipe-mode.js");
  const flags = headlessFlags(invocation);
  if (invocation.inputFormat === "stream-json") {
    runtime.warn(`mca: session ${session.id} (${continueWith})`);
    const { runStreamJsonInput } = await import("./stream-json-input.js");
    return runStreamJsonInput(session, stdinLines(runtime), flags);
  }
  const lines = mode === "pipe" ? stdinLines(runtime) : await headlessPrompt(invocation.prompt, runtime);
  if (lines instanceof Error) {
    runtime.warn(`mca: ${lines.message}`);
    if (invocation.outputFormat !== "text") {
      const { failedBeforeRun, jsonLine } = await import("./headless-output.js");
      runtime.writeOut(jsonLine(failedBeforeRun(lines.message, session.id)));
    }
    return USAGE_EXIT_CODE;
  }
  // One line on stderr, so that stdout stays the answer alone.
  runtime.warn(`mca: session ${session.id} (${continueWith})`);
  return runPipeMode(session, lines, flags);
}

/** Standard input line by line; an interrupt ends it, so pipe mode stops even while waiting for input. */
function stdinLines(runtime: Runtime): AsyncIterable<string> {
  const lines = createInterface({ input: runtime.terminal.input(), crlfDelay: Number.POSITIVE_INFINITY });
  runtime.interrupt.addEventListener("abort", () => lines.close(), { once: true });
  return lines;
}

/**
 * The one line -p runs, as `claude -p` reads it: the prompt, with the text piped in after it as its context;
 * without a prompt, the piped text is the prompt. A slash command runs alone (a piped text is not its argument).
 */
async function headlessPrompt(prompt: string | undefined, runtime: Runtime): Promise<readonly string[] | Error> {
  const piped = runtime.terminal.inputIsTerminal() ? "" : await readPiped(runtime);
  if (piped instanceof Error) return piped;
  if (prompt === undefined) {
    if (piped.trim() === "") return new Error("-p has no prompt: give it after -p, or pipe it in (echo 'explain this' | mca -p)");
    return [piped];
  }
  if (piped.trim() === "") return [prompt];
  if (prompt.trim().startsWith("/")) {
    runtime.warn("mca: the text piped in is not read by a slash command");
    return [prompt];
  }
  // Mentions are read in the prompt only: the piped text may be anyone's (a log, a file of a repository).
  const { PIPED_TEXT_START } = await import("./mentions.js");
  return [`${prompt}${PIPED_TEXT_START}${piped.replace(/\n$/, "")}\n</stdin>`];
}

/** More piped text than this is refused: a model's whole window is about 800 kB of text. */
const MAX_PIPED_BYTES = 4 * 1024 * 1024;

/** All of standard input, as text; what arrived so far once interrupted; an Error past MAX_PIPED_BYTES. */
async function readPiped(runtime: Runtime): Promise<string | Error> {
  const signal = runtime.interrupt;
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stop = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  const read = (async () => {
    for await (const chunk of runtime.terminal.input()) {
      if (!Buffer.isBuffer(chunk)) continue;
      bytes += chunk.length;
      if (bytes > MAX_PIPED_BYTES) return;
      chunks.push(chunk);
    }
  })();
  await Promise.race([read, stop]);
  if (bytes > MAX_PIPED_BYTES) return new Error(`the text piped in is over ${MAX_PIPED_BYTES / 1024 / 1024} MB, more than a model's context can take: pipe in less (e.g. | tail -n 2000)`);
  return Buffer.concat(chunks).toString("utf8");
}
