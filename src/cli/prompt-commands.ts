// The MCP servers' prompts as slash commands, `/mcp__<alias>__<prompt> [args]`, named as remote tools are
// (sanitised, hash-suffixed on a collision): listed in the background at start and again when a server comes
// back or says its prompts changed. A command's arguments go by position or as `name=value`; its prompt's
// messages become the user's turn. Whatever a server wrote is shown through untrustedText.
import { describeError } from "../kernel/index.js";
import { buildNamespace, getPrompt, listPrompts, McpError, offersPrompts, type ListChange, type PromptArgument, type PromptInfo, type PromptSource } from "../mcp/index.js";
import type { CommandOutcome, PromptCatalog, SlashCommand } from "./session-seam.js";
import { promptArgumentQuestion } from "./server-completion.js";
import { untrustedText } from "./untrusted-text.js";

/** A word of a command's arguments: its value, and its name when it was written `name=value`. */
interface Word {
  readonly value: string;
  readonly name?: string;
}

/**
 * The words of an argument text, split at whitespace outside quotes. `"…"` and `'…'` keep spaces (inside
 * double quotes `\"` and `\\` stand for `"` and `\`); an `=` before any quote makes the text before it the name.
 */
function splitWords(argText: string): Word[] | Error {
  const words: Word[] = [];
  let word: { value: string; name?: string; quoted: boolean } | undefined;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < argText.length; index += 1) {
    const char = argText[index] ?? "";
    if (quote === undefined && /\s/u.test(char)) {
      if (word !== undefined) words.push(word.name === undefined ? { value: word.value } : { value: word.value, name: word.name });
      word = undefined;
      continue;
    }
    word ??= { value: "", quoted: false };
    if (quote === undefined && (char === '"' || char === "'")) {
      quote = char;
      word.quoted = true;
    } else if (char === quote) {
      quote = undefined;
    } else if (quote === '"' && char === "\\" && (argText[index + 1] === '"' || argText[index + 1] === "\\")) {
      index += 1;
      word.value += argText[index] ?? "";
    } else if (quote === undefined && char === "=" && word.name === undefined && !word.quoted && word.value !== "") {
      word.name = word.value;
      word.value = "";
    } else {
      word.value += char;
    }
  }
  if (quote !== undefined) return new Error(`a ${quote} quote is not closed`);
  if (word !== undefined) words.push(word.name === undefined ? { value: word.value } : { value: word.value, name: word.name });
  return words;
}

const quotedNames = (args: readonly PromptArgument[]): string => args.map((arg) => JSON.stringify(arg.name)).join(", ");

/**
 * A command's argument text read against the prompt's declared arguments: `name=value` fills the one named,
 * and positional values fill the others in their declared order. An unknown name, a name given twice, a
 * value too many, or a required argument left out is an Error naming it.
 */
export function parsePromptArguments(argText: string, declared: readonly PromptArgument[]): Record<string, string> | Error {
  const words = splitWords(argText);
  if (words instanceof Error) return words;
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (const { name, value } of words) {
    if (name === undefined) {
      positional.push(value);
    } else if (!declared.some((arg) => arg.name === name)) {
      const known = declared.length === 0 ? "it takes no arguments" : `its arguments: ${quotedNames(declared)}`;
      return new Error(`no argument named ${JSON.stringify(name)}; ${known}`);
    } else if (values.has(name)) {
      return new Error(`the argument ${JSON.stringify(name)} is given twice`);
    } else {
      values.set(name, value);
    }
  }
  const open = declared.filter((arg) => !values.has(arg.name));
  if (positional.length > open.length) {
    const room = open.length === declared.length ? `${open.length}` : `${open.length} more besides those named`;
    return new Error(`it takes ${declared.length === 0 ? "no arguments" : `at most ${room}`}, and ${positional.length} were given`);
  }
  positional.forEach((value, index) => values.set(open[index]?.name ?? "", value));
  const missing = declared.filter((arg) => arg.required && !values.has(arg.name));
  if (missing.length > 0) return new Error(`missing the required argument${missing.length === 1 ? "" : "s"} ${quotedNames(missing)}`);
  // In the declared order, whatever order they were written in.
  return Object.fromEntries(declared.flatMap((arg) => (values.has(arg.name) ? [[arg.name, values.get(arg.name) ?? ""]] : [])));
}

/** `/mcp__everything__args-prompt <city> [state]`: required arguments in angle brackets, optional ones in square. */
export function promptUsage(command: string, declared: readonly PromptArgument[]): string {
  const args = declared.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`));
  return [`/${command}`, ...args].join(" ");
}

/** `Review a file — Continues a review…`: the title the server gives the prompt, then the first line of its description. */
export function promptAbout(prompt: Pick<PromptInfo, "title" | "description">): string {
  const title = prompt.title?.trim() ?? "";
  const description = (prompt.description ?? "").split("\n")[0]?.trim() ?? "";
  if (title === "" || description === "" || description === title) return title === "" ? description : title;
  return `${title} — ${description}`;
}

/** One prompt as a slash command; its outcome hands the prompt's messages to the mode as the user's turn. */
function promptCommand(source: PromptSource, prompt: PromptInfo, command: string): SlashCommand {
  const usage = promptUsage(command, prompt.arguments);
  const about = promptAbout(prompt);
  return {
    name: command,
    usage,
    summary: `${about === "" ? "" : `${about} `}(MCP server "${source.alias}")`,
    complete: (argText) => promptArgumentQuestion(source, prompt.name, prompt.arguments, argText),
    async run(line, argText): Promise<CommandOutcome> {
      const args = parsePromptArguments(argText, prompt.arguments);
      if (args instanceof Error) {
        line.view.warn(untrustedText(`/${command}: ${args.message}; usage: ${usage}`));
        return "failed";
      }
      const turn = await getPrompt(source, prompt.name, args, { signal: line.signal });
      if (turn instanceof McpError) {
        line.view.warn(untrustedText(`/${command}: MCP server "${source.alias}": ${turn.message}`));
        return "failed";
      }
      return turn.images.length === 0 ? { prompt: turn.text } : { prompt: turn.text, images: turn.images };
    },
  };
}

export interface PromptCatalogOptions {
  /** One line per problem: a prompt dropped from a listing, a listing that failed. */
  readonly warn: (text: string) => void;
  /** Aborted when the mode ends: a listing still running stops, and says nothing. */
  readonly signal: AbortSignal;
  /** Hears each change of a server's lists until the returned function is called: a change of prompts lists that server again. */
  readonly watch?: (listener: (change: ListChange) => void) => () => void;
}

/**
 * Starts listing every server's prompts at once, in the background; the commands are there as each listing
 * ends. A server that says its prompts changed is listed again, and the user reads one line about it.
 */
export function createPromptCatalog(sources: readonly PromptSource[], options: PromptCatalogOptions): PromptCatalog {
  const { warn, signal } = options;
  const bySource = new Map(sources.map((source) => [source.alias, source]));
  const listed = new Map<string, readonly PromptInfo[]>();
  /** Per server, the newest listing: an older one that ends later is not the server's list. */
  const newest = new Map<string, Promise<void>>();
  let commands: readonly SlashCommand[] = [];

  const rebuild = (): void => {
    const prompts = new Map([...listed].map(([alias, infos]) => [alias, new Map(infos.map((info) => [info.name, info]))]));
    const namespace = buildNamespace([...listed].flatMap(([alias, infos]) => infos.map((info) => ({ alias, tool: info.name }))));
    commands = namespace.entries().flatMap(({ alias, tool, flatName }) => {
      const source = bySource.get(alias);
      const prompt = prompts.get(alias)?.get(tool);
      return source === undefined || prompt === undefined ? [] : [promptCommand(source, prompt, flatName)];
    });
  };

  const list = async (source: PromptSource): Promise<readonly PromptInfo[]> => {
    if (!offersPrompts(source)) return [];
    // Never rejects: it runs in the background, where nothing would catch it.
    const prompts = await listPrompts(source, (message) => warn(untrustedText(`mcp: ${source.alias}: ${message}`)), { signal }).catch((error: unknown) => new Error(describeError(error)));
    if (!(prompts instanceof Error)) return prompts;
    if (!signal.aborted) warn(untrustedText(`mcp: ${source.alias}: its prompts are not offered as commands: ${prompts.message}`));
    return [];
  };

  const refresh = (alias: string): Promise<void> => {
    const source = bySource.get(alias);
    if (source === undefined || signal.aborted) return Promise.resolve();
    const done: Promise<void> = list(source).then((prompts) => {
      if (newest.get(alias) !== done) return;
      listed.set(alias, prompts);
      rebuild();
    });
    newest.set(alias, done);
    return done;
  };

  const namesOf = (alias: string): string => JSON.stringify((listed.get(alias) ?? []).map((prompt) => prompt.name).sort());
  /** Per server, the change being listed: a burst of changes is one listing in flight and one more after it. */
  const changing = new Map<string, { again: boolean }>();
  const onPromptsChanged = async (alias: string): Promise<void> => {
    const running = changing.get(alias);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const state = { again: false };
    changing.set(alias, state);
    try {
      do {
        state.again = false;
        const before = namesOf(alias);
        await refresh(alias);
        const count = listed.get(alias)?.length ?? 0;
        // A server may say its list changed when it did not: only a different list is worth a line.
        if (!signal.aborted && namesOf(alias) !== before) warn(untrustedText(`mcp: ${alias}: prompts changed (now ${count} prompt${count === 1 ? "" : "s"})`));
      } while (state.again && !signal.aborted);
    } finally {
      changing.delete(alias);
    }
  };

  for (const source of sources) void refresh(source.alias);
  const stopWatching = options.watch?.((change) => {
    if (change.kind === "prompts") void onPromptsChanged(change.alias);
  });
  signal.addEventListener("abort", () => stopWatching?.(), { once: true });
  return {
    current: () => commands,
    settled: async () => {
      // A refresh may start while the listings run: wait until none is newer than those waited for.
      let running: Promise<void>[];
      do {
        running = [...newest.values()];
        await Promise.all(running);
      } while ([...newest.values()].some((listing) => !running.includes(listing)));
      return commands;
    },
    refresh,
  };
}
