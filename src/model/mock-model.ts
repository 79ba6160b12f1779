// The mock model: deterministic and offline, so mca runs without a key and the self-test needs none.
//
// Rules, applied to the last user message of the request:
// 1. It carries tool results and no text of the user's: the reply quotes the first line of each result and says whether the
//    call succeeded or failed (`read_file succeeded: "1\talpha"`), and the turn ends.
// 2. `call <tool> <json>`: exactly that tool call, with the JSON object as its arguments.
//    `call <tool>` alone calls it with `{}`. Arguments that are not a JSON object get a reply saying so.
// 3. `tools`: the names of the tools the request offers, one per line.
// 4. `search <words or /regex/>`: a call of tool_search with that query, when the request offers it (MCP
//    tools are deferred); a deferred tool can also be called by its name with rule 2.
// 5. Anything else: a short reply that repeats the question and names up to three of the request's
//    tools with how to call them, and how to search when tool_search is offered.
// Replies stream through onText in a few chunks. Tool-use ids count up per model: mock_1, mock_2, …
import { describeError, TOOL_SEARCH_NAME, type JsonSchema, type Message, type Model, type ModelReply, type ModelRequest, type ToolSpec, type UserMessage } from "../kernel/index.js";

const CALL_PATTERN = /^call\s+(\S+)(?:\s+([\s\S]*))?$/;
const SEARCH_PATTERN = /^search\s+([\s\S]+)$/;
const MAX_QUOTED_CHARS = 200;
const TOOLS_NAMED_IN_HELP = 3;

export function createMockModel(): Model {
  let nextId = 1;
  return {
    name: "mock",
    async complete(request) {
      request.signal.throwIfAborted();
      const last = request.messages.at(-1);
      // A new prompt merged after interrupted calls' results is a prompt: the user's words come first.
      const hasText = last?.role === "user" && userText(last.content) !== "";
      if (last?.role === "user" && !hasText && last.content.some((block) => block.type === "tool_result")) {
        return textReply(summariseResults(request.messages), request);
      }
      const said = last?.role === "user" ? userText(last.content) : "";
      const toolUse = (name: string, input: Record<string, unknown>): ModelReply => {
        const id = `mock_${nextId}`;
        nextId += 1;
        return { message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] }, stopReason: "tool_use" };
      };
      const call = CALL_PATTERN.exec(said);
      if (call !== null) {
        const name = call[1] ?? "";
        const input = parseArguments(call[2]);
        if (input instanceof Error) return textReply(`I could not read the arguments of ${name}: ${input.message}`, request);
        return toolUse(name, input);
      }
      const search = SEARCH_PATTERN.exec(said);
      if (search !== null && offersSearch(request.tools)) return toolUse(TOOL_SEARCH_NAME, { query: (search[1] ?? "").trim() });
      if (said === "tools") {
        const names = request.tools.map((tool) => tool.name);
        return textReply(names.length === 0 ? "I can see no tools." : names.join("\n"), request);
      }
      return textReply(help(said, request.tools), request);
    },
  };
}

function userText(content: UserMessage["content"]): string {
  return content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
}

function parseArguments(json: string | undefined): Record<string, unknown> | Error {
  if (json === undefined || json.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return new Error(`they are not valid JSON (${describeError(error)})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return new Error("they must be a JSON object");
  return Object.fromEntries(Object.entries(value));
}

function summariseResults(messages: readonly Message[]): string {
  const last = messages.at(-1);
  const previous = messages.at(-2);
  const toolNames = new Map<string, string>();
  if (previous?.role === "assistant") {
    for (const block of previous.content) if (block.type === "tool_use") toolNames.set(block.id, block.name);
  }
  const lines: string[] = [];
  for (const block of last?.role === "user" ? last.content : []) {
    if (block.type !== "tool_result") continue;
    const tool = toolNames.get(block.toolUseId) ?? block.toolUseId;
    const firstLine = quote(block.text.split("\n")[0] ?? "");
    lines.push(`${tool} ${block.isError ? "failed" : "succeeded"}: ${firstLine}`);
  }
  return lines.join("\n");
}

function help(question: string, tools: readonly ToolSpec[]): string {
  const intro = `You asked: ${quote(question)}. I am the offline mock model: I do not answer questions, but I can call tools.`;
  if (tools.length === 0) return `${intro} I can see no tools.`;
  // Markdown, as a model writes: the chat renders it, pipe mode prints it as it is.
  const examples = tools.slice(0, TOOLS_NAMED_IN_HELP).map((tool) => `- \`${exampleCall(tool)}\``);
  const searching = offersSearch(tools) ? [`More MCP tools are not loaded yet: say \`search <words>\` (or \`search /regex/\`) to find and load them, or call one by its name.`] : [];
  return [`${intro} For example:`, "", ...examples, "", `Say "tools" to list all ${tools.length}.`, ...searching].join("\n");
}

const offersSearch = (tools: readonly ToolSpec[]): boolean => tools.some((tool) => tool.name === TOOL_SEARCH_NAME);

/** `call read_file {"path":"<path>"}`: the tool's required arguments as placeholders. */
function exampleCall(tool: ToolSpec): string {
  const required = requiredNames(tool.inputSchema);
  if (required.length === 0) return `call ${tool.name}`;
  return `call ${tool.name} ${JSON.stringify(Object.fromEntries(required.map((name) => [name, `<${name}>`])))}`;
}

function requiredNames(schema: JsonSchema): string[] {
  const required = schema["required"];
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : [];
}

function quote(text: string): string {
  const short = text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
  return JSON.stringify(short);
}

/** Streams the text in a few chunks split at word boundaries, then returns it whole. */
function textReply(text: string, request: ModelRequest): ModelReply {
  const words = text.split(/(?<=\s)/);
  const perChunk = Math.max(1, Math.ceil(words.length / 3));
  for (let at = 0; at < words.length; at += perChunk) request.onText(words.slice(at, at + perChunk).join(""));
  return { message: { role: "assistant", content: [{ type: "text", text }] }, stopReason: "end_turn" };
}
