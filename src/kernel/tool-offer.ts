// Which tool definitions a model request carries. When the remote tools' definitions would take more than
// a share of the context window, they are deferred: the request carries the local tools, `tool_search`,
// the remote tools loaded so far and, in the system prompt, the deferred tools' names by server. A search
// or a direct call loads a tool for the rest of the session.
import { CHARS_PER_TOKEN, CONTEXT_WINDOW_TOKENS } from "./compaction.js";
import type { ToolSpec, TranscriptEntry } from "./ports.js";
import { createToolIndex, DEFAULT_SEARCH_LIMIT, MAX_REGEX_SUBJECT_CHARS, MAX_SEARCH_LIMIT, parameterNames, parseToolQuery, type ToolIndex } from "./tool-search.js";
import { withinTimeLimit } from "./time-limit.js";
import type { Tool, ToolResult } from "./tool.js";

/** `auto`: defer when the remote definitions exceed `percent` of the context window; `always` when there are any; `never`. */
export type ToolSearchMode = { readonly kind: "auto"; readonly percent: number } | { readonly kind: "always" } | { readonly kind: "never" };

export const DEFAULT_TOOL_SEARCH: ToolSearchMode = { kind: "auto", percent: 10 };
export const TOOL_SEARCH_NAME = "tool_search";
/** Each server's instructions in the deferred list are cut to this many characters... */
export const MAX_INSTRUCTIONS_CHARS = 500;
/** A search that runs longer (a costly regular expression the checks let through) is stopped. */
export const SEARCH_TIME_LIMIT_MS = 1000;
/** ...and the whole list (names and instructions of every server) to about this many, shared out between servers. */
export const MAX_DEFERRED_LIST_CHARS = 12_000;
/** Room kept in a server's share of the list for "… and N more (find them with tool_search)". */
const MORE_CHARS = 50;
/** A match's description in a search result is cut to this many characters. */
const MATCH_DESCRIPTION_CHARS = MAX_REGEX_SUBJECT_CHARS;

export interface DeferredTool {
  readonly name: string;
  readonly source: string;
}

/** What the next request carries: the definitions sent, the remote tools held back, the system prompt's list of them. */
export interface OfferedTools {
  readonly tools: readonly ToolSpec[];
  readonly deferred: readonly DeferredTool[];
  /** "" when nothing is deferred. */
  readonly deferredList: string;
}

export interface ToolOfferDeps {
  readonly mode: ToolSearchMode;
  /** A server's instructions for the model, by alias (untrusted text). */
  readonly instructions?: (alias: string) => string | undefined;
  /** Loaded in an earlier run of this session (--resume). */
  readonly loaded?: readonly string[];
  /** Told the names each time tools are loaded, to record them in the transcript. */
  readonly onLoad: (entry: Extract<TranscriptEntry, { type: "tools_loaded" }>) => void;
}

export interface ToolOffer {
  setTools(tools: readonly Tool[]): void;
  /** Loads the remote tools among `names` that are deferred; the others are passed over. */
  load(names: readonly string[]): void;
  offered(): OfferedTools;
  /** `tool_search` while tools are deferred, else undefined. */
  searchTool(): Tool | undefined;
  /** The names loaded so far, in the order they were. */
  loaded(): readonly string[];
}

export const specOf = ({ name, description, inputSchema }: ToolSpec): ToolSpec => ({ name, description, inputSchema });

/** The estimate used where no API count exists: one token per four characters of the definitions' JSON. */
export const definitionTokens = (specs: readonly ToolSpec[]): number => Math.ceil(JSON.stringify(specs).length / CHARS_PER_TOKEN);

export function defersTools(mode: ToolSearchMode, remote: readonly ToolSpec[], windowTokens: number = CONTEXT_WINDOW_TOKENS): boolean {
  if (remote.length === 0) return false;
  switch (mode.kind) {
    case "never":
      return false;
    case "always":
      return true;
    case "auto":
      return definitionTokens(remote) > (windowTokens * mode.percent) / 100;
    default: {
      const unknown: never = mode;
      throw new Error(`unknown tool search mode ${JSON.stringify(unknown)}`);
    }
  }
}

const SEARCH_SPEC: ToolSpec = {
  name: TOOL_SEARCH_NAME,
  description:
    "Finds MCP tools whose definitions are not loaded yet (their names are listed by server in the system prompt) and loads them: " +
    "the tools found can be called from your next reply on. `query` is words (matched against tool names, parameter names and " +
    `descriptions) or a regular expression written /like_this/ (case-insensitive, matched against names and the first ${MAX_REGEX_SUBJECT_CHARS} ` +
    `characters of descriptions). Returns up to \`limit\` tools (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}), best first.`,
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "Words, or a /regular expression/." },
      limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools at most (default ${DEFAULT_SEARCH_LIMIT}).` },
    },
    required: ["query"],
  },
};

const isRemote = (tool: Tool): boolean => tool.source !== "local";

export function createToolOffer(deps: ToolOfferDeps): ToolOffer {
  let local: ToolSpec[] = [];
  let remote: readonly Tool[] = [];
  let remoteByName = new Map<string, Tool>();
  let deferring = false;
  let deferredList = "";
  let index: ToolIndex | null = null;
  // Kept in load order, so that each load only appends to the definitions sent before it.
  let loaded: string[] = [...(deps.loaded ?? [])];

  const load = (names: readonly string[]): void => {
    const fresh = [...new Set(names)].filter((name) => deferring && remoteByName.has(name) && !loaded.includes(name));
    if (fresh.length === 0) return;
    loaded = [...loaded, ...fresh];
    deps.onLoad({ type: "tools_loaded", names: fresh });
  };

  const searchTool: Tool<{ query: string; limit: number }> = {
    ...SEARCH_SPEC,
    kind: "read",
    source: "local",
    originalName: TOOL_SEARCH_NAME,
    parse(args) {
      const { query, limit = DEFAULT_SEARCH_LIMIT } = args;
      if (typeof query !== "string") return new Error('"query" must be a string: words or a /regular expression/');
      if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) return new Error(`"limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
      return { query, limit: Math.min(limit, MAX_SEARCH_LIMIT) };
    },
    async run({ query, limit }) {
      const parsed = parseToolQuery(query);
      if (parsed instanceof Error) return { text: `${parsed.message}.`, isError: true };
      const built = (index ??= createToolIndex(remote));
      // The checks on a regular expression bound its cost, but only a time limit makes that certain.
      const matches = withinTimeLimit(() => built.search(parsed, limit), SEARCH_TIME_LIMIT_MS);
      if (matches instanceof Error) return { text: `The search was stopped: ${matches.message}. Use words, or a simpler /regular expression/.`, isError: true };
      const found = matches.flatMap(({ name }) => remoteByName.get(name) ?? []);
      load(found.map((tool) => tool.name));
      return searchResult(query, found, remote.length);
    },
  };

  return {
    setTools(tools) {
      local = tools.filter((tool) => !isRemote(tool)).map(specOf);
      remote = tools.filter(isRemote);
      remoteByName = new Map(remote.map((tool) => [tool.name, tool]));
      deferring = defersTools(deps.mode, remote.map(specOf));
      deferredList = deferring ? deferredToolsList(remote, deps.instructions ?? (() => undefined)) : "";
      index = null;
      // A tool the servers no longer offer is forgotten; one that is offered again comes back deferred.
      loaded = loaded.filter((name) => remoteByName.has(name));
    },
    load,
    offered() {
      if (!deferring) return { tools: [...local, ...remote.map(specOf)], deferred: [], deferredList: "" };
      const sent = loaded.flatMap((name) => remoteByName.get(name) ?? []);
      const isLoaded = new Set(loaded);
      const deferred = remote.filter((tool) => !isLoaded.has(tool.name)).map(({ name, source }) => ({ name, source }));
      return { tools: [...local, SEARCH_SPEC, ...sent.map(specOf)], deferred, deferredList };
    },
    searchTool: () => (deferring ? searchTool : undefined),
    loaded: () => loaded,
  };
}

function searchResult(query: string, found: readonly Tool[], total: number): ToolResult {
  if (found.length === 0) {
    return { text: `No tool matches ${JSON.stringify(query)} among the ${total} deferred MCP tools; try other words, fewer words, or a /regular expression/.`, isError: false };
  }
  const lines = found.map((tool) => {
    const description = tool.description.length > MATCH_DESCRIPTION_CHARS ? `${tool.description.slice(0, MATCH_DESCRIPTION_CHARS)}…` : tool.description;
    const parameters = parameterNames(tool);
    return `- ${tool.name} (server ${tool.source}): ${oneLine(description)}${parameters.length === 0 ? "" : ` Parameters: ${parameters.join(", ")}.`}`;
  });
  return { text: [`Loaded ${found.length} tool${found.length === 1 ? "" : "s"}: ${found.length === 1 ? "its definition is" : "their definitions are"} sent with your next request, so call ${found.length === 1 ? "it" : "them"} from your next reply.`, ...lines].join("\n"), isError: false };
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

/**
 * The system prompt's section naming the deferred tools, by server, each server's names after the prefix
 * they share and its instructions cut. It depends only on the tools offered and the servers' instructions,
 * never on what was loaded, so it stays the same request after request.
 */
export function deferredToolsList(remote: readonly Tool[], instructions: (alias: string) => string | undefined): string {
  const bySource = new Map<string, Tool[]>();
  for (const tool of remote) bySource.set(tool.source, [...(bySource.get(tool.source) ?? []), tool]);
  const share = Math.floor(MAX_DEFERRED_LIST_CHARS / Math.max(1, bySource.size));
  const sections = [...bySource].map(([alias, tools]) => {
    const names = tools.map((tool) => tool.name);
    const prefix = sharedPrefix(names);
    const header = `- ${alias} (${names.length} tool${names.length === 1 ? "" : "s"}, each named ${prefix}<name>): `;
    const said = oneLine(instructions(alias) ?? "");
    const instructionsCut = Math.min(MAX_INSTRUCTIONS_CHARS, Math.floor(share / 4));
    // Quoted: the server's words are data about its tools, and the quotes show where they end.
    const told = said === "" ? [] : [`  Server's instructions (untrusted): ${JSON.stringify(said.length > instructionsCut ? `${said.slice(0, instructionsCut)}…` : said)}`];
    // What is left once the header, the instructions and a "… and N more" are counted.
    const room = share - header.length - told.join("").length - MORE_CHARS;
    const shown: string[] = [];
    let used = 0;
    for (const name of names) {
      const short = name.slice(prefix.length);
      if (used + short.length + 2 > room) break;
      shown.push(short);
      used += short.length + 2;
    }
    const more = names.length - shown.length;
    const list = `${shown.join(", ")}${more === 0 ? "" : `${shown.length === 0 ? "" : ", "}… and ${more} more (find them with ${TOOL_SEARCH_NAME})`}`;
    return [`${header}${list}`, ...told].join("\n");
  });
  return [
    `MCP tools not loaded yet: call ${TOOL_SEARCH_NAME} with words or a /regular expression/ to load the ones you need, or call one by its exact name.`,
    ...sections,
  ].join("\n");
}

/** The longest prefix the names share that ends with `__` (the flat name's separator), or "". */
function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? "";
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const end = prefix.lastIndexOf("__");
  return end < 0 ? "" : prefix.slice(0, end + 2);
}

/** The tools a transcript's entries loaded, in order: replayed on --resume. */
export function replayLoadedTools(entries: Iterable<TranscriptEntry>): string[] {
  const loaded: string[] = [];
  for (const entry of entries) if (entry.type === "tools_loaded") for (const name of entry.names) if (!loaded.includes(name)) loaded.push(name);
  return loaded;
}
