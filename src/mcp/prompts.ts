// A server's prompts (https://modelcontextprotocol.io/specification/2026-07-28/server/prompts): the listing
// read page by page up to a cap, one prompt fetched with its arguments, and its messages made into one user
// turn. All of it is the server's text, untrusted: the CLI shows it only through its filter.
import type { ToolImage } from "../kernel/index.js";
import { describeBlock, parseBlock, readResultType, type ContentBlock, type Part } from "./call-result.js";
import { isJsonObject, McpError, type JsonObject } from "./jsonrpc.js";
import type { RequestOptions } from "./peer.js";
import { collectPages } from "./tool-list.js";

/** The most prompts one server offers as commands; a listing past it is not read further. */
export const MAX_PROMPTS_PER_SERVER = 1000;
/** Dropped prompts are named one by one up to this many; the rest are counted in one more warning. */
const MAX_DROP_WARNINGS = 10;

export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface PromptInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** In the order the server declares them: the order positional values fill them. */
  readonly arguments: readonly PromptArgument[];
}

/** What prompts need of a server; a ServerConnection is one. */
export interface PromptSource {
  readonly alias: string;
  /** What the server declared when it came up. */
  readonly capabilities: JsonObject;
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject | McpError>;
}

/** A prompt's messages as one user turn: the text, with a line where each image stood, and the images. */
export interface PromptTurn {
  readonly text: string;
  readonly images: readonly ToolImage[];
}

/** "Servers that support prompts MUST declare the prompts capability." */
export function offersPrompts(source: PromptSource): boolean {
  return isJsonObject(source.capabilities.prompts);
}

const isString = (value: unknown): value is string => typeof value === "string";

function parseArgument(value: unknown): PromptArgument | Error {
  if (!isJsonObject(value) || !isString(value.name) || value.name === "") return new Error("an argument has no name");
  const { name, description } = value;
  return { name, ...(isString(description) ? { description } : {}), required: value.required === true };
}

function parsePrompt(value: unknown): PromptInfo | Error {
  if (!isJsonObject(value) || !isString(value.name) || value.name === "") return new Error("a prompt has no name");
  const { name, title, description } = value;
  const listed: unknown = value.arguments ?? [];
  if (!Array.isArray(listed)) return new Error(`prompt ${JSON.stringify(name)}: \`arguments\` is not an array`);
  const args: PromptArgument[] = [];
  for (const item of listed) {
    const argument = parseArgument(item);
    if (argument instanceof Error) return new Error(`prompt ${JSON.stringify(name)}: ${argument.message}`);
    if (args.some((known) => known.name === argument.name)) return new Error(`prompt ${JSON.stringify(name)}: two arguments named ${JSON.stringify(argument.name)}`);
    args.push(argument);
  }
  return { name, ...(isString(title) ? { title } : {}), ...(isString(description) ? { description } : {}), arguments: args };
}

/**
 * Every prompt of the server, in its order, up to MAX_PROMPTS_PER_SERVER; a malformed prompt, or a second
 * of the same name, is dropped with a warning. A failed request is the value returned, never thrown.
 */
export async function listPrompts(source: PromptSource, warn: (message: string) => void, options: RequestOptions = {}): Promise<PromptInfo[] | McpError> {
  let collected;
  try {
    collected = await collectPages({
      server: source.alias,
      method: "prompts/list",
      itemsKey: "prompts",
      maxItems: MAX_PROMPTS_PER_SERVER,
      fetchPage: async (cursor) => {
        const page = await source.request("prompts/list", cursor === undefined ? {} : { cursor }, options);
        if (page instanceof McpError) throw page;
        return page;
      },
    });
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  const prompts: PromptInfo[] = [];
  const names = new Set<string>();
  let dropped = 0;
  const drop = (message: string): void => {
    dropped += 1;
    if (dropped <= MAX_DROP_WARNINGS) warn(`dropping a prompt from prompts/list: ${message}`);
  };
  for (const item of collected.items) {
    const prompt = parsePrompt(item);
    if (prompt instanceof Error) drop(prompt.message);
    else if (names.has(prompt.name)) drop(`a second prompt named ${JSON.stringify(prompt.name)}: prompt names must be unique per server`);
    else {
      names.add(prompt.name);
      prompts.push(prompt);
    }
  }
  if (dropped > MAX_DROP_WARNINGS) warn(`dropping ${dropped - MAX_DROP_WARNINGS} more prompts from prompts/list (malformed or named twice)`);
  if (collected.cut) warn(`lists more than ${MAX_PROMPTS_PER_SERVER} prompts: the first ${MAX_PROMPTS_PER_SERVER} are offered and the listing was read no further`);
  return prompts;
}

/** `prompts/get {name, arguments}`, its messages made into one user turn; a failure is the value returned. */
export async function getPrompt(source: PromptSource, name: string, args: Readonly<Record<string, string>>, options: RequestOptions = {}): Promise<PromptTurn | McpError> {
  const result = await source.request("prompts/get", { name, arguments: { ...args } }, options);
  if (result instanceof McpError) return result;
  const turn = promptTurn(result);
  return turn instanceof Error ? new McpError("protocol", `prompts/get ${JSON.stringify(name)}: ${turn.message}`, { server: source.alias }) : turn;
}

type Role = "user" | "assistant";
const ROLE_HEADINGS: Readonly<Record<Role, string>> = { user: "User:", assistant: "Assistant:" };

interface Message {
  readonly role: Role;
  readonly content: ContentBlock;
}

function parseMessages(result: JsonObject): Message[] | Error {
  const resultType = readResultType(result);
  if (resultType instanceof Error) return resultType;
  // A prompt that needs answers first: mca answers a tool's questions, not a prompt's.
  if (resultType === "input_required") return new Error("the server asks for more input first, which mca does not give for a prompt");
  if (!Array.isArray(result.messages)) return new Error("`messages` is not an array");
  const messages: Message[] = [];
  for (const [index, item] of result.messages.entries()) {
    if (!isJsonObject(item) || (item.role !== "user" && item.role !== "assistant")) return new Error(`messages[${index}]: the role is neither "user" nor "assistant"`);
    const content = parseBlock(item.content);
    if (content instanceof Error) return new Error(`messages[${index}].content: ${content.message}`);
    messages.push({ role: item.role, content });
  }
  return messages.length === 0 ? new Error("the prompt has no messages") : messages;
}

/** Backticks enough that no run inside the text closes the fence. */
/** Backticks enough that no run inside the text closes the fence (a Markdown code block around untrusted text). */
export function fenceFor(text: string): string {
  const longest = (text.match(/`+/gu) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  return "`".repeat(Math.max(3, longest + 1));
}

/** An embedded text resource reads as a fenced block under its uri; every other block as a tool result's does. */
function messagePart(block: ContentBlock): Part {
  const text = block.type === "resource" ? block.resource.text : undefined;
  if (block.type !== "resource" || text === undefined) return describeBlock(block);
  const fence = fenceFor(text);
  return { text: `${block.resource.uri}\n${fence}\n${text}${text.endsWith("\n") ? "" : "\n"}${fence}` };
}

/** Each line of a part quoted, so that nothing in it reads as a heading of its own. */
function quoted(text: string): string {
  return text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/**
 * The messages as one user turn, in order. A prompt of one role reads as plain text; one of both roles is a
 * conversation to continue, so each run of a role's messages is quoted under whose it is.
 */
export function promptTurn(result: JsonObject): PromptTurn | Error {
  const messages = parseMessages(result);
  if (messages instanceof Error) return messages;
  const bothRoles = new Set(messages.map((message) => message.role)).size > 1;
  const lines: string[] = [];
  const images: ToolImage[] = [];
  let previous: Role | undefined;
  for (const { role, content } of messages) {
    const part = messagePart(content);
    if (part.image !== undefined) images.push(part.image);
    if (bothRoles && role !== previous) lines.push(ROLE_HEADINGS[role]);
    lines.push(bothRoles ? quoted(part.text) : part.text);
    previous = role;
  }
  return { text: lines.join("\n"), images };
}
