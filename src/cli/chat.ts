// The interactive chat (stdin is a terminal): a prompt line, streamed answers, approval prompts, and one
// Ctrl-C rule in every state — the first interrupts what runs (or clears the line being typed) and says
// that a second within DOUBLE_INTERRUPT_WINDOW_MS exits, which it does; Ctrl-D on an empty line exits.
// Esc interrupts what runs as the first Ctrl-C does, but never leads to an exit, and does nothing at the
// prompt (the line typed stays). A prompt typed while a turn runs is queued and sent when the turn ends.
import { describeError } from "../kernel/index.js";
import { promptForApproval, toolDisplayName } from "./approval.js";
import { loadMarkdownRenderer, terminalDrawsHyperlinks, type MarkdownRenderer } from "./markdown.js";
import { isCommandLine, runLine, SLASH_COMMANDS } from "./commands.js";
import { resumedView, resumedViewText } from "./resumed-view.js";
import { createTabCompleter } from "./completion.js";
import { appendPromptHistory, loadPromptHistory, promptHistoryFile } from "./prompt-history.js";
import { createTtyRenderer } from "./render.js";
import { createSpinner } from "./spinner.js";
import { fitToWidth } from "./text-layout.js";
import type { ModeView, Session } from "./session-seam.js";
import { createChatInput } from "./chat-input.js";
import { createPromptsAsker, redactingAsker, showInPager, type Asker, type TerminalLender } from "./terminal.js";

export const DOUBLE_INTERRUPT_WINDOW_MS = 1500;
export const END_SETTLE_LIMIT_MS = 3000;
/** What the spinner's line ends with, as in Claude Code and Codex. */
export const INTERRUPT_HINT = "esc to interrupt";

/** The key that interrupted a turn: only Ctrl-C leads on to an exit. */
type InterruptKey = "ctrl-c" | "esc";

/** Resolves with the exit status when the session ends; the caller then shuts everything down. */
export async function runChat(session: Session, firstPrompt: string | undefined): Promise<number> {
  const { runtime, servers, mentions } = session;
  const { env, redact, now, interrupt: signal } = runtime;
  const output = runtime.terminal.output;
  const terminalInput = runtime.terminal.input();
  // Answers are rendered as Markdown in colour; without colour (NO_COLOR, not a terminal) they stay plain text.
  const color = (env.NO_COLOR ?? "") === "" && output.isTTY === true;
  const { Chalk } = await import("chalk");
  const chalk = new Chalk(color ? {} : { level: 0 });
  const out = (text: string): void => {
    output.write(redact(text));
  };
  // A terminal that reports no size (0 columns, as under script(1) without one) counts as one of unknown width.
  const width = (): number | undefined => (output.isTTY === true && (output.columns ?? 0) > 0 ? output.columns : undefined);
  const spinner = createSpinner((text) => runtime.terminal.errorOutput.write(text), runtime.terminal.errorOutput.isTTY === true, width, INTERRUPT_HINT);
  let markdown: MarkdownRenderer | undefined;
  const renderer = createTtyRenderer({ out, chalk, spinner, width, markdown: () => markdown, height: () => (width() === undefined ? undefined : output.rows), displayName: shownToolName });
  const terminal = { stdin: terminalInput, stdout: output };
  /** Every text of a question passes the redaction too: a server's question may echo what it was given. */
  const asker = (): Asker => redactingAsker(createPromptsAsker(terminal), redact);

  // The turn's state, read and changed by the handlers below.
  let running: AbortController | null = null;
  let runningLine: Promise<unknown> = Promise.resolve();
  let lastInterruptMs = Number.NEGATIVE_INFINITY;
  /** Set when the user interrupted the running turn; Ctrl-C wins over Esc, as it armed the exit. */
  let interruptedBy: InterruptKey | undefined;
  /** Prompts typed while a turn ran, in order: sent as the next prompt when it ends. */
  let queued: string[] = [];
  let ended = false;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    finish = (code) => {
      // Ended: the warnings go to stderr again, and the agent's events to no one.
      runtime.showWarningsIn(null);
      detach();
      resolve(code);
    };
  });
  /** Ctrl-C arms the exit (a second within the window ends the chat); Esc never does. */
  const interrupt = (key: InterruptKey): void => {
    if (key === "ctrl-c") lastInterruptMs = now();
    interruptedBy = interruptedBy === "ctrl-c" ? "ctrl-c" : key;
    running?.abort();
  };

  // The input line and the turns call each other: what the line reports (a line, Ctrl-C, Ctrl-D) goes to
  // the function declarations further down, which read the line, the agent and the view lines run with.
  const historyFile = promptHistoryFile(session.state);
  const input = createChatInput({
    input: terminalInput,
    output,
    promptText: chalk.bold.cyan("› "),
    history: loadPromptHistory(historyFile),
    complete: createTabCompleter({
      get commands() {
        return [...SLASH_COMMANDS, ...servers.prompts().current()].map((command) => command.name);
      },
      tools: offeredToolNames,
      projectDir: session.projectDir,
      promptCommands: () => servers.prompts().current(),
      mentions,
    }),
    onLine: (text) => {
      // Kept as the user wrote it: a prompt of several lines is one entry.
      if (text.trim() !== "") appendPromptHistory(historyFile, text.trim());
      onLine(text);
    },
    onInterrupt,
    onEnd: () => end(0),
    // At the prompt, empty or half typed, Esc does nothing: the line stays for the user to go on with.
    onEscape: () => {
      if (running !== null) interrupt("esc");
    },
  });

  /** Ctrl-C or Esc at a question (an approval, a server's): it interrupts the turn, as that key does elsewhere. */
  const interruptAtQuestion = (): void => interrupt(input.lentEndedByEscape ? "esc" : "ctrl-c");

  const { agent } = session;
  const detach = session.attach({
    approve: async (request) => {
      renderer.pause();
      const answer = await input.suspend(() => promptForApproval(request, chalk, asker(), output.rows));
      if (answer !== "cancelled") return answer;
      // Ctrl-C or Esc at the question: deny this call and interrupt the turn.
      interruptAtQuestion();
      return "deny";
    },
    emit: (event) => renderer.emit(event),
  });

  const lendTerminal: TerminalLender = async (question) => {
    renderer.pause();
    const answer = await input.suspend(() => question({ asker: asker(), chalk }));
    if (answer !== undefined) return answer;
    interruptAtQuestion();
    return undefined;
  };
  servers.answerOn(lendTerminal);
  // Above the input line when it is shown, held while a question owns the terminal, else between the turn's
  // lines; dim in both places, as beside the conversation rather than in it.
  runtime.showWarningsIn((text) => (running === null || input.suspended ? input.printAbove(chalk.dim(text)) : renderer.note(text)));

  // A command's output steps the spinner aside (/call's result comes after its tool's "thinking").
  // Every line mca prints wraps by word at the terminal's width, rather than being cut by the terminal.
  const print = (text: string): void => spinner.aside(() => out(`${fitToWidth(text.replace(/\n$/u, ""), width())}\n`));
  const view: ModeView = {
    print,
    warn: (text) => spinner.aside(() => out(`${fitToWidth(chalk.red(text), width())}\n`)),
    note: print,
    width,
    // A pager needs a real terminal; elsewhere /last prints.
    page: async (text) => (output.isTTY === true ? input.suspend(() => showInPager(redact(text), output, terminalInput)) : print(text)),
    turnStarts: () => renderer.thinking(),
    // The person types these lines: `!command` runs as their own call, and `/mcp login` asks here.
    terminal: lendTerminal,
  };

  function offeredToolNames(): string[] {
    return agent.tools.map((tool) => tool.name);
  }

  /** A call line names a remote tool by its title, its name beside it. */
  function shownToolName(name: string): string {
    const tool = agent.tools.find((candidate) => candidate.name === name);
    return tool === undefined ? name : toolDisplayName(tool);
  }

  function end(code: number): void {
    if (ended) return;
    ended = true;
    input.close();
    // Ended by main (SIGTERM, SIGHUP): the call cut short says why, not "Aborted by the user".
    running?.abort(signal.aborted ? signal.reason : undefined);
    renderer.pause();
    out("\n");
    // Only once the aborted turn has settled are its tools' processes gone; a turn that ignores the
    // abort is not waited for beyond END_SETTLE_LIMIT_MS.
    const limit = setTimeout(() => finish(code), END_SETTLE_LIMIT_MS);
    void runningLine.then(() => {
      clearTimeout(limit);
      finish(code);
    });
  }

  function start(text: string): void {
    const controller = new AbortController();
    running = controller;
    interruptedBy = undefined;
    runningLine = runLine(text, { session, view, signal: controller.signal }).then((outcome) => {
      running = null;
      if (ended) return;
      renderer.pause();
      const cost = session.costs.endTurn();
      if (cost !== undefined) out(`${fitToWidth(chalk.dim(cost), width())}\n`);
      if (outcome === "exit") return end(0);
      const waiting = queued;
      queued = [];
      if (interruptedBy !== undefined) {
        const hints = [...(interruptedBy === "ctrl-c" ? ["Ctrl-C again now to exit"] : []), ...(waiting.length > 0 ? ["the prompt you typed meanwhile is back on the line"] : [])];
        if (hints.length > 0) out(chalk.dim(`${hints.join("; ")}\n`));
        input.prompt();
        // Interrupted: what was typed meanwhile is not sent on its own; it waits on the line, to send or edit.
        if (waiting.length > 0) input.prefill(waiting.join(" "));
        return;
      }
      if (waiting.length > 0) {
        // Prompts typed one after another go as one; a command (`/`, `!`) goes alone, and what follows it waits its turn.
        const firstAlone = waiting.findIndex(isCommandLine);
        const count = firstAlone === 0 ? 1 : firstAlone === -1 ? waiting.length : firstAlone;
        queued = waiting.slice(count);
        const next = waiting.slice(0, count).join("\n");
        out(`${chalk.dim("› ")}${next}\n`);
        return start(next);
      }
      input.prompt();
    });
  }

  function onLine(line: string): void {
    const text = line.trim();
    if (running !== null) {
      // Typed beside the spinner: the prompt is shown again on a line of its own, above the spinner.
      spinner.aside(() => {
        input.takeBackEcho();
        if (text === "") return;
        queued.push(text);
        out(`${chalk.dim("› ")}${text}\n${chalk.dim("(queued: sent when this turn ends)")}\n`);
      });
      return;
    }
    if (text === "") {
      input.prompt();
      return;
    }
    start(text);
  }

  function onInterrupt(hadText: boolean): void {
    if (now() - lastInterruptMs <= DOUBLE_INTERRUPT_WINDOW_MS) return end(0);
    if (running !== null) return interrupt("ctrl-c");
    lastInterruptMs = now();
    // The input line stays where the Ctrl-C left it: the hint goes below it, then a fresh prompt.
    out(`\n${chalk.dim(`${hadText ? "cleared · " : ""}Ctrl-C again now to exit, or Ctrl-D`)}\n`);
    input.prompt();
  }

  if (signal.aborted) end(0);
  else signal.addEventListener("abort", () => end(0), { once: true });
  out(`${fitToWidth(session.banner, width())}\n${fitToWidth(chalk.dim("/help lists the commands · Esc interrupts · Ctrl-D exits"), width())}\n`);
  const loadMarkdown = async (): Promise<void> => {
    if (!color) return;
    await loadMarkdownRenderer(width, terminalDrawsHyperlinks(env)).then(
      (loaded) => (markdown = loaded),
      (error: unknown) => out(chalk.dim(`(answers shown as plain text: ${describeError(error)})\n`)),
    );
  };
  // A resumed session shows the conversation it goes on with, its answers rendered as they were: the renderer first.
  const resumed = agent.messages;
  if (resumed.length > 0) {
    await loadMarkdown();
    if (ended) return finished;
    out(resumedViewText(resumedView(resumed), { chalk, markdown: markdown ?? null, width: width() }));
  }
  const first = firstPrompt?.trim() ?? "";
  if (first === "") input.prompt();
  else {
    appendPromptHistory(historyFile, first);
    out(`${chalk.bold.cyan("› ")}${first}\n`);
    start(first);
  }
  // Loaded once the prompt is up, while the user types; an answer that starts before it is ready stays plain.
  if (resumed.length === 0) void loadMarkdown();
  return finished;
}
