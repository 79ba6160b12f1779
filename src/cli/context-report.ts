// What the next model request will carry, in tokens, section by section (`/context`, `mca context --json`):
// the system prompt, the project's instructions in it, the local tools, tool search and its list of deferred
// tools, each server's loaded definitions, the messages, and what is left of the window. Sections are
// estimated (4 characters a token) and add up; the total is the API's count when a model can ask for one.
import { CHARS_PER_TOKEN, CONTEXT_WINDOW_TOKENS, definitionTokens, estimatedTokens as estimatedRequestTokens, TOOL_SEARCH_NAME, type Agent, type Tool, type ToolSpec } from "../kernel/index.js";
import type { CountTokens } from "./session-model.js";
import { untrustedText } from "./untrusted-text.js";

/** How long the API's count may take before the estimate is shown instead. */
const COUNT_TIMEOUT_MS = 10_000;
/** Where the system prompt's project instructions begin (session.ts writes it), naming their file. */
const INSTRUCTIONS_START = /\n\nThe project's own instructions, from its (.+?) \(/u;
/** Where the agent appends the deferred tools' list to the system prompt (tool-offer.ts writes it). */
const DEFERRED_LIST_START = "\n\nMCP tools not loaded yet:";
/** Characters of the one-line bar of the window. */
const BAR_CHARS = 40;

/** `mca context --json`: a scripting contract, so fields are only ever added. */
export interface ContextReport {
  /** How `totalTokens` was had: the API's count of the request, or the sum of the estimated sections. */
  readonly counted: "api" | "estimate";
  readonly windowTokens: number;
  readonly totalTokens: number;
  readonly freeTokens: number;
  /** The sum of the sections below, each estimated. */
  readonly estimatedTokens: number;
  readonly systemPrompt: { readonly tokens: number };
  /** AGENTS.md (or CLAUDE.md) as the system prompt carries it; `file` null when the project has none. */
  readonly projectInstructions: { readonly file: string | null; readonly tokens: number };
  readonly localTools: { readonly count: number; readonly tokens: number };
  /** The tool_search definition and the system prompt's list of the deferred tools; 0 without tool search. */
  readonly toolSearch: { readonly tokens: number };
  /** Per server: the definitions sent (loaded) and the tools held back (deferred); `tokens`: the loaded ones'. */
  readonly servers: readonly { readonly alias: string; readonly loaded: number; readonly deferred: number; readonly tokens: number }[];
  readonly messages: { readonly count: number; readonly tokens: number };
}

function estimate(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Definitions as the model gets them; none cost nothing. */
export function toolDefinitionTokens(specs: readonly ToolSpec[]): number {
  return specs.length === 0 ? 0 : definitionTokens(specs.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));
}

/** The system prompt in its three parts: mca's own, the project's instructions, the deferred tools' list. */
function splitSystem(system: string, deferring: boolean): { own: string; instructions: string; file: string | null; deferredList: string } {
  const listAt = deferring ? system.lastIndexOf(DEFERRED_LIST_START) : -1;
  const head = listAt < 0 ? system : system.slice(0, listAt);
  const deferredList = listAt < 0 ? "" : system.slice(listAt);
  const match = INSTRUCTIONS_START.exec(head);
  if (match === null) return { own: head, instructions: "", file: null, deferredList };
  return { own: head.slice(0, match.index), instructions: head.slice(match.index), file: match[1] ?? null, deferredList };
}

/** The report of what `agent`'s next request carries; `count`, when given, is asked for the total. */
export async function contextReport(agent: Agent, count: CountTokens | undefined, signal: AbortSignal): Promise<ContextReport> {
  const preview = agent.requestPreview();
  const sourceOf = new Map(agent.tools.map((tool: Tool) => [tool.name, tool.source]));
  const system = splitSystem(preview.system, preview.deferred.length > 0);
  const local = preview.tools.filter((spec) => (sourceOf.get(spec.name) ?? "local") === "local" && spec.name !== TOOL_SEARCH_NAME);
  const search = preview.tools.filter((spec) => spec.name === TOOL_SEARCH_NAME);
  const aliases = [...new Set([...preview.tools.map((spec) => sourceOf.get(spec.name) ?? "local"), ...preview.deferred.map((tool) => tool.source)])].filter((alias) => alias !== "local");
  const servers = aliases.map((alias) => {
    const loaded = preview.tools.filter((spec) => sourceOf.get(spec.name) === alias);
    return { alias, loaded: loaded.length, deferred: preview.deferred.filter((tool) => tool.source === alias).length, tokens: toolDefinitionTokens(loaded) };
  });
  const sections = {
    systemPrompt: { tokens: estimate(system.own.length) },
    projectInstructions: { file: system.file, tokens: estimate(system.instructions.length) },
    localTools: { count: local.length, tokens: toolDefinitionTokens(local) },
    toolSearch: { tokens: toolDefinitionTokens(search) + estimate(system.deferredList.length) },
    servers,
    // As compaction counts them: an image as its line of text, never its base64 data.
    messages: { count: preview.messages.length, tokens: preview.messages.length === 0 ? 0 : estimatedRequestTokens("", preview.messages, []) },
  };
  const estimatedTokens =
    sections.systemPrompt.tokens +
    sections.projectInstructions.tokens +
    sections.localTools.tokens +
    sections.toolSearch.tokens +
    servers.reduce((sum, server) => sum + server.tokens, 0) +
    sections.messages.tokens;
  // The API's count is a request like any other: one that fails or hangs leaves the estimate, said as such.
  const counting = AbortSignal.any([signal, AbortSignal.timeout(COUNT_TIMEOUT_MS)]);
  const counted = count === undefined ? undefined : await count({ system: preview.system, messages: preview.messages, tools: preview.tools, signal: counting }).catch(() => undefined);
  const totalTokens = counted ?? estimatedTokens;
  return {
    counted: counted === undefined ? "estimate" : "api",
    windowTokens: CONTEXT_WINDOW_TOKENS,
    totalTokens,
    freeTokens: Math.max(0, CONTEXT_WINDOW_TOKENS - totalTokens),
    estimatedTokens,
    ...sections,
  };
}

const number = (value: number): string => value.toLocaleString("en-US");

/** `[████░░░…]`: the used share of the window, at least one cell once anything is used. */
function windowBar(used: number, window: number): string {
  const cells = used === 0 ? 0 : Math.min(BAR_CHARS, Math.max(1, Math.round((used / window) * BAR_CHARS)));
  return `[${"█".repeat(cells)}${"░".repeat(BAR_CHARS - cells)}]`;
}

/** The plain view: a line of totals, the bar, then one line per section, each estimated (`≈`). */
export function formatContextReport(report: ContextReport): string[] {
  const percent = Math.round((report.totalTokens / report.windowTokens) * 100);
  const how = report.counted === "api" ? "counted by the API; the sections are estimates" : "estimated at 4 characters a token";
  const rows: [string, number][] = [
    ["system prompt", report.systemPrompt.tokens],
    ...(report.projectInstructions.file === null ? [] : [[`project instructions (${report.projectInstructions.file})`, report.projectInstructions.tokens] satisfies [string, number]]),
    [`local tools (${report.localTools.count})`, report.localTools.tokens],
    ...(report.toolSearch.tokens === 0 ? [] : [["tool_search and the deferred tools' list", report.toolSearch.tokens] satisfies [string, number]]),
    ...report.servers.map((server): [string, number] => [`${server.alias}: ${server.loaded} loaded, ${server.deferred} deferred`, server.tokens]),
    [`messages (${report.messages.count})`, report.messages.tokens],
  ];
  const width = Math.max(...rows.map(([label]) => label.length), "free".length);
  return [
    `next request: ${number(report.totalTokens)} of ${number(report.windowTokens)} tokens (${percent} %), ${how}`,
    windowBar(report.totalTokens, report.windowTokens),
    ...rows.map(([label, tokens]) => untrustedText(`  ${label.padEnd(width)}  ≈${number(tokens)}`)),
    `  ${"free".padEnd(width)}  ${number(report.freeTokens)}`,
  ];
}
