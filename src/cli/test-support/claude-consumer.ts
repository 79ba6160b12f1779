// A consumer of `claude -p`'s output, written from Claude Code's documentation (the Agent SDK's message types,
// https://docs.claude.com/en/docs/agent-sdk/typescript, and the headless guide,
// https://docs.claude.com/en/docs/claude-code/headless), not from mca's code: each parser checks the fields a
// script reads and throws naming the first one missing or of the wrong type. Unknown line types are kept
// as they are, as SDK consumers do.

export interface ApiUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export type AssistantBlock = { readonly type: "text"; readonly text: string } | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: unknown };

export interface SDKSystemInit {
  readonly type: "system";
  readonly subtype: "init";
  readonly session_id: string;
  readonly cwd: string;
  readonly model: string;
  readonly tools: readonly string[];
  readonly mcp_servers: ReadonlyArray<{ readonly name: string; readonly status: string }>;
  readonly permissionMode: string;
}

export interface SDKAssistantMessage {
  readonly type: "assistant";
  readonly message: {
    readonly id: string;
    readonly role: "assistant";
    readonly model: string;
    readonly content: readonly AssistantBlock[];
    readonly stop_reason: string | null;
    readonly usage: ApiUsage;
  };
  readonly parent_tool_use_id: string | null;
  readonly session_id: string;
}

export interface ToolResult {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  readonly content: unknown;
  readonly is_error: boolean;
}

export interface SDKUserMessage {
  readonly type: "user";
  readonly message: { readonly role: "user"; readonly content: readonly ToolResult[] };
  readonly parent_tool_use_id: string | null;
  readonly session_id: string;
}

export interface SDKPermissionDenial {
  readonly tool_name: string;
  readonly tool_use_id: string;
  readonly tool_input: Record<string, unknown>;
}

export interface SDKResultMessage {
  readonly type: "result";
  readonly subtype: "success" | "error_max_turns" | "error_during_execution" | "error_max_budget_usd" | "error_max_structured_output_retries";
  readonly is_error: boolean;
  readonly duration_ms: number;
  readonly duration_api_ms: number;
  readonly num_turns: number;
  readonly result: string;
  readonly session_id: string;
  readonly total_cost_usd: number;
  readonly usage: ApiUsage;
  readonly permission_denials: readonly SDKPermissionDenial[];
}

export interface SDKStreamEvent {
  readonly type: "stream_event";
  readonly event: { readonly type: string };
  readonly session_id: string;
}

export type SDKMessage = SDKSystemInit | SDKAssistantMessage | SDKUserMessage | SDKResultMessage | SDKStreamEvent | { readonly type: "unknown"; readonly line: unknown };

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${where}: expected an object`);
  return Object.fromEntries(Object.entries(value));
}

function field<T>(from: Json, key: string, where: string, is: (value: unknown) => value is T, what: string): T {
  const value = from[key];
  if (!is(value)) throw new Error(`${where}.${key}: expected ${what}, got ${JSON.stringify(value)}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isArray = (value: unknown): value is unknown[] => Array.isArray(value);
const isNullableString = (value: unknown): value is string | null => value === null || typeof value === "string";
const oneOf =
  <T extends string>(...values: T[]) =>
  (value: unknown): value is T =>
    typeof value === "string" && values.some((known) => known === value);

function usage(value: unknown, where: string): ApiUsage {
  const from = object(value, where);
  return {
    input_tokens: field(from, "input_tokens", where, isNumber, "a number"),
    output_tokens: field(from, "output_tokens", where, isNumber, "a number"),
    cache_creation_input_tokens: field(from, "cache_creation_input_tokens", where, isNumber, "a number"),
    cache_read_input_tokens: field(from, "cache_read_input_tokens", where, isNumber, "a number"),
  };
}

function assistantBlock(value: unknown, where: string): AssistantBlock {
  const from = object(value, where);
  const type = field(from, "type", where, oneOf("text", "tool_use"), '"text" or "tool_use"');
  if (type === "text") return { type, text: field(from, "text", where, isString, "a string") };
  return { type, id: field(from, "id", where, isString, "a string"), name: field(from, "name", where, isString, "a string"), input: object(from["input"], `${where}.input`) };
}

export function parseResult(value: unknown): SDKResultMessage {
  const from = object(value, "result");
  return {
    type: field(from, "type", "result", oneOf("result"), '"result"'),
    subtype: field(from, "subtype", "result", oneOf("success", "error_max_turns", "error_during_execution", "error_max_budget_usd", "error_max_structured_output_retries"), "a subtype"),
    is_error: field(from, "is_error", "result", isBoolean, "a boolean"),
    duration_ms: field(from, "duration_ms", "result", isNumber, "a number"),
    duration_api_ms: field(from, "duration_api_ms", "result", isNumber, "a number"),
    num_turns: field(from, "num_turns", "result", isNumber, "a number"),
    result: field(from, "result", "result", isString, "a string"),
    session_id: field(from, "session_id", "result", isString, "a string"),
    total_cost_usd: field(from, "total_cost_usd", "result", isNumber, "a number"),
    usage: usage(from["usage"], "result.usage"),
    permission_denials: field(from, "permission_denials", "result", isArray, "an array").map((denial, index) => {
      const where = `result.permission_denials[${index}]`;
      const entry = object(denial, where);
      return { tool_name: field(entry, "tool_name", where, isString, "a string"), tool_use_id: field(entry, "tool_use_id", where, isString, "a string"), tool_input: object(entry["tool_input"], `${where}.tool_input`) };
    }),
  };
}

/** One line of `--output-format stream-json`. */
export function parseLine(line: string): SDKMessage {
  const from = object(JSON.parse(line), "line");
  const type = from["type"];
  const session_id = (): string => field(from, "session_id", String(type), isString, "a string");
  switch (type) {
    case "system": {
      if (from["subtype"] !== "init") return { type: "unknown", line: from };
      const servers = field(from, "mcp_servers", "init", isArray, "an array").map((server, index) => {
        const entry = object(server, `init.mcp_servers[${index}]`);
        return { name: field(entry, "name", "mcp_servers", isString, "a string"), status: field(entry, "status", "mcp_servers", isString, "a string") };
      });
      return {
        type,
        subtype: "init",
        session_id: session_id(),
        cwd: field(from, "cwd", "init", isString, "a string"),
        model: field(from, "model", "init", isString, "a string"),
        tools: field(from, "tools", "init", isArray, "an array").map((tool) => (isString(tool) ? tool : "")),
        mcp_servers: servers,
        permissionMode: field(from, "permissionMode", "init", isString, "a string"),
      };
    }
    case "assistant": {
      const message = object(from["message"], "assistant.message");
      return {
        type,
        message: {
          id: field(message, "id", "assistant.message", isString, "a string"),
          role: field(message, "role", "assistant.message", oneOf("assistant"), '"assistant"'),
          model: field(message, "model", "assistant.message", isString, "a string"),
          content: field(message, "content", "assistant.message", isArray, "an array").map((block, index) => assistantBlock(block, `assistant.message.content[${index}]`)),
          stop_reason: field(message, "stop_reason", "assistant.message", isNullableString, "a string or null"),
          usage: usage(message["usage"], "assistant.message.usage"),
        },
        parent_tool_use_id: field(from, "parent_tool_use_id", "assistant", isNullableString, "a string or null"),
        session_id: session_id(),
      };
    }
    case "user": {
      const message = object(from["message"], "user.message");
      const content = field(message, "content", "user.message", isArray, "an array").map((block, index): ToolResult => {
        const where = `user.message.content[${index}]`;
        const entry = object(block, where);
        return {
          type: field(entry, "type", where, oneOf("tool_result"), '"tool_result"'),
          tool_use_id: field(entry, "tool_use_id", where, isString, "a string"),
          content: entry["content"],
          is_error: field(entry, "is_error", where, isBoolean, "a boolean"),
        };
      });
      return {
        type,
        message: { role: field(message, "role", "user.message", oneOf("user"), '"user"'), content },
        parent_tool_use_id: field(from, "parent_tool_use_id", "user", isNullableString, "a string or null"),
        session_id: session_id(),
      };
    }
    case "stream_event": {
      const event = object(from["event"], "stream_event.event");
      return { type, event: { type: field(event, "type", "stream_event.event", isString, "a string") }, session_id: session_id() };
    }
    case "result":
      return parseResult(from);
    default:
      return { type: "unknown", line: from };
  }
}

/** The tool calls a stream-json consumer sees: each tool_use with the result that answered it. */
export function toolRounds(messages: readonly SDKMessage[]): Array<{ name: string; input: unknown; result: unknown; is_error: boolean | null }> {
  const results = new Map<string, ToolResult>();
  for (const message of messages) if (message.type === "user") for (const block of message.message.content) results.set(block.tool_use_id, block);
  return messages.flatMap((message) =>
    message.type !== "assistant"
      ? []
      : message.message.content.flatMap((block) => {
          if (block.type !== "tool_use") return [];
          const result = results.get(block.id);
          return [{ name: block.name, input: block.input, result: result?.content ?? null, is_error: result?.is_error ?? null }];
        }),
  );
}
