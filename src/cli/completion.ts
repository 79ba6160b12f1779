// Tab in the chat's input line: slash commands at the start of a line, tool names after `/call`, a server's
// resources and the project's files after `@`, and file and folder names (relative to the project) anywhere else. Returns what
// readline's completer expects: the candidates, and the part of the line they replace. An MCP prompt's argument
// and a resource template's variable are asked of their server (`completion/complete`), within a short time limit.
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import type { SlashCommand } from "./session-seam.js";
import type { Mentions } from "./mentions.js";
import type { ServerQuestion } from "./server-completion.js";

/** More would not fit on a screen; the user types another letter instead. */
const MAX_CANDIDATES = 100;
/** Readline reads no key while a completion runs: past this, Tab gives up on the server and the line is the user's again. */
export const TAB_TIME_LIMIT_MS = 400;
/** The same question asked again this soon (a second Tab to list what the first one found) is answered from the last answer. */
export const ANSWER_REUSE_MS = 5000;

export interface CompletionSources {
  readonly commands: readonly string[];
  readonly tools: () => readonly string[];
  readonly projectDir: string;
  /** A word that starts with `@`: the servers that offer resources (`@alias:`), then a server's resource URIs. */
  readonly mentions?: Pick<Mentions, "complete"> & Partial<Pick<Mentions, "question">>;
  /** The MCP prompts' commands, whose arguments their servers complete. */
  readonly promptCommands?: () => readonly SlashCommand[];
}

export function completeLine(line: string, sources: CompletionSources): [string[], string] {
  if (/^\/\S*$/u.test(line)) {
    return [sources.commands.map((name) => `/${name}`).filter((command) => command.startsWith(line)), line];
  }
  const toolPrefix = /^\/call\s+(\S*)$/u.exec(line)?.[1];
  if (toolPrefix !== undefined) {
    return [sources.tools().filter((name) => name.startsWith(toolPrefix)).slice(0, MAX_CANDIDATES), toolPrefix];
  }
  const word = /(\S*)$/u.exec(line)?.[1] ?? "";
  if (word.startsWith("@")) {
    // `@alias:` and a server's URIs, then the project's files (`@src/ma` → `@src/main.ts`).
    const resources = sources.mentions?.complete(word) ?? [];
    const files = word.includes(":") ? [] : completePath(word.slice(1), sources.projectDir).map((path) => `@${path}`);
    return [[...resources, ...files].slice(0, MAX_CANDIDATES), word];
  }
  return [completePath(word, sources.projectDir), word];
}

/** The question for a server the end of the line asks, if any: a prompt command's argument, or a template's variable after `@alias:`. */
function serverQuestion(line: string, sources: CompletionSources): ServerQuestion | undefined {
  const command = /^\/(\S+)\s(.*)$/su.exec(line);
  if (command !== null) {
    const [, name = "", argText = ""] = command;
    return sources.promptCommands?.().find((candidate) => candidate.name === name)?.complete?.(argText);
  }
  const word = /(\S*)$/u.exec(line)?.[1] ?? "";
  return word.startsWith("@") && word.includes(":") ? sources.mentions?.question?.(word) : undefined;
}

/** When the time limit is up, in a way a test can drive. */
export interface TabClock {
  now(): number;
  /** Runs `fire` after `ms` unless the returned function is called first. */
  after(ms: number, fire: () => void): () => void;
}

const SYSTEM_CLOCK: TabClock = {
  now: () => Date.now(),
  after: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

type Completed = [string[], string];

/**
 * Readline's completer in its callback form (two parameters), so a server can be asked. What only the line and
 * the project say is answered at once. A server's question is answered within TAB_TIME_LIMIT_MS: past it, Tab
 * offers nothing and the late answer is not shown then, but kept for the same question's next Tab. One
 * question is asked at a time (a new one stops the one before), and a question asked again while its answer
 * is on the way, or soon after it came, is not sent again.
 */
export function createTabCompleter(sources: CompletionSources, clock: TabClock = SYSTEM_CLOCK): (line: string, done: (error: null, result: Completed) => void) => void {
  let answered: { readonly key: string; readonly atMs: number; readonly candidates: readonly string[] } | undefined;
  let asking: { readonly key: string; readonly answer: Promise<readonly string[]>; readonly stop: AbortController } | undefined;
  const ask = (question: ServerQuestion): Promise<readonly string[]> => {
    if (asking?.key === question.key) return asking.answer;
    asking?.stop.abort();
    const stop = new AbortController();
    const answer = question.ask(stop.signal).catch((): readonly string[] => []);
    const mine = { key: question.key, answer, stop };
    asking = mine;
    void answer.then((candidates) => {
      if (asking === mine) asking = undefined;
      if (!stop.signal.aborted) answered = { key: question.key, atMs: clock.now(), candidates };
    });
    return answer;
  };
  return (line, done) => {
    const question = serverQuestion(line, sources);
    if (question === undefined) {
      done(null, completeLine(line, sources));
      return;
    }
    const shown = (candidates: readonly string[]): Completed => [candidates.slice(0, MAX_CANDIDATES), question.word];
    if (answered !== undefined && answered.key === question.key && clock.now() - answered.atMs <= ANSWER_REUSE_MS) {
      done(null, shown(answered.candidates));
      return;
    }
    const answer = ask(question);
    const inTime = new Promise<readonly string[]>((resolve) => {
      const cancel = clock.after(TAB_TIME_LIMIT_MS, () => resolve([]));
      void answer.then((candidates) => {
        cancel();
        resolve(candidates);
      });
    });
    void inTime.then((candidates) => done(null, shown(candidates)));
  };
}

/** `src/ma` → `src/main.ts`, `src/main/`…; hidden entries only when the name typed starts with a dot. */
function completePath(word: string, projectDir: string): string[] {
  const slash = word.lastIndexOf("/");
  const folderPart = slash === -1 ? "" : word.slice(0, slash + 1);
  const namePart = word.slice(slash + 1);
  const folder = resolve(projectDir, folderPart === "" ? "." : folderPart);
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(namePart) && (namePart.startsWith(".") || !entry.name.startsWith(".")))
    .map((entry) => `${folderPart}${entry.name}${entry.isDirectory() ? "/" : ""}`)
    .sort()
    .slice(0, MAX_CANDIDATES);
}
