// Answers an MCP server's `sampling/createMessage` through the session's model, only with the user's
// consent twice: before the model sees the server's messages, and before its answer goes back. Text only:
// a message holding an image, audio or tool blocks is refused rather than silently shortened.
import type { ChalkInstance } from "chalk";
import { describeError, type Message, type Model, type ModelReply, type StopReason, type TextBlock } from "../../kernel/index.js";
import { isJsonObject, type InputRequest, type JsonObject } from "../../mcp/index.js";
import type { Choice, TerminalLender } from "../terminal.js";
import { untrustedText } from "../untrusted-text.js";
import type { Asking } from "./elicitation.js";

const PREVIEW_LINES = 20;

type SamplingRequest = Extract<InputRequest, { kind: "sampling" }>;

export interface SamplingDeps {
  readonly lend: TerminalLender;
  readonly model: Model;
  readonly signal: AbortSignal;
}

/** `abandon`: "the server is not waiting", so the call is given up rather than answered with an error (a declined
 * sampling request needs no error reply: https://modelcontextprotocol.io/specification/2026-07-28/client/sampling). */
export type SamplingAnswer =
  | { readonly kind: "result"; readonly result: JsonObject }
  | { readonly kind: "abandon"; readonly reason: string }
  | { readonly kind: "interrupted" };

type YesNo = "yes" | "no";

function preview(text: string, chalk: ChalkInstance): string {
  const lines = untrustedText(text).split("\n");
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `    ${line}`);
  if (lines.length > PREVIEW_LINES) shown.push(chalk.dim(`    … ${lines.length - PREVIEW_LINES} more lines`));
  return shown.join("\n");
}

function describeRequest(prompt: SamplingPrompt, request: SamplingRequest, asking: Asking, model: string, chalk: ChalkInstance): string {
  const lines = [
    `${chalk.yellow("input requested:")} MCP server "${untrustedText(asking.server)}" asks the model (${model}) to answer, for its tool ${untrustedText(asking.tool)}:`,
  ];
  if (prompt.system !== "") lines.push(chalk.dim("  system prompt:"), preview(prompt.system, chalk));
  for (const message of prompt.messages) lines.push(chalk.dim(`  ${message.role}:`), preview(messageText(message), chalk));
  lines.push(chalk.dim(`  at most ${request.maxTokens} tokens asked for`));
  return lines.join("\n");
}

function yesNo(yes: string): ReadonlyArray<Choice<YesNo>> {
  return [
    { title: yes, value: "yes" },
    { title: "Decline", value: "no" },
  ];
}

/** The terminal is lent for each question and given back while the model works, so Ctrl-C interrupts as usual. */
export async function answerSampling(request: SamplingRequest, asking: Asking, deps: SamplingDeps): Promise<SamplingAnswer> {
  const { model, lend, signal } = deps;
  const prompt = samplingPrompt(request.params, request.messages);
  if (prompt instanceof Error) return { kind: "abandon", reason: `mca cannot answer this sampling request: ${prompt.message}` };

  const consent = await lend(async ({ asker, chalk }) => {
    asker.say(describeRequest(prompt, request, asking, model.name, chalk));
    return asker.select(`Let ${model.name} answer the server?`, yesNo(`Let ${model.name} answer`));
  });
  if (consent === undefined) return { kind: "interrupted" };
  if (consent === "no") return { kind: "abandon", reason: "the user declined the sampling request" };

  let reply;
  try {
    // The server's messages get no tools: a sampling request with tools is never declared (see the input support mca declares).
    reply = await model.complete({ system: prompt.system, messages: prompt.messages, tools: [], signal, onText: () => undefined });
  } catch (error) {
    return { kind: "abandon", reason: `the model failed: ${describeError(error)}` };
  }

  const result = createMessageResult(reply, model.name);
  const send = await lend(async ({ asker, chalk }) => {
    asker.say(`${chalk.yellow("the model's answer")} for MCP server "${untrustedText(asking.server)}":\n${preview(messageText(reply.message), chalk)}`);
    return asker.select("Send this answer to the server?", yesNo("Send it"));
  });
  if (send === undefined) return { kind: "interrupted" };
  if (send === "no") return { kind: "abandon", reason: "the user declined to send the model's answer" };
  return { kind: "result", result };
}

export interface SamplingPrompt {
  readonly system: string;
  readonly messages: readonly Message[];
}

/** Stop reasons as MCP names them; `other` has no MCP name and is left out. */
const MCP_STOP_REASON: Readonly<Record<StopReason, string | undefined>> = {
  end_turn: "endTurn",
  max_tokens: "maxTokens",
  tool_use: "toolUse",
  refusal: "refusal",
  other: undefined,
};

function textBlocks(content: unknown, where: string): TextBlock[] | Error {
  const blocks = Array.isArray(content) ? content : [content];
  const texts: TextBlock[] = [];
  for (const block of blocks) {
    if (!isJsonObject(block)) return new Error(`${where}: a content block is not an object`);
    if (block.type !== "text") return new Error(`${where} holds ${JSON.stringify(block.type)} content, and mca samples text only`);
    if (typeof block.text !== "string") return new Error(`${where}: a text block has no text`);
    texts.push({ type: "text", text: block.text });
  }
  return texts;
}

/** A `sampling/createMessage` request in the kernel's shape: its system prompt and messages, or an Error naming the message that does not fit. */
export function samplingPrompt(params: JsonObject, messages: readonly JsonObject[]): SamplingPrompt | Error {
  const mapped: Message[] = [];
  for (const [index, message] of messages.entries()) {
    const where = `message ${index + 1}`;
    const content = textBlocks(message.content, where);
    if (content instanceof Error) return content;
    if (message.role === "user") mapped.push({ role: "user", content });
    else if (message.role === "assistant") mapped.push({ role: "assistant", content });
    else return new Error(`${where} has the role ${JSON.stringify(message.role)}`);
  }
  return { system: typeof params.systemPrompt === "string" ? params.systemPrompt : "", messages: mapped };
}

/** The text of a message, its blocks joined. */
function messageText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.content) if (block.type === "text") parts.push(block.text);
  return parts.join("");
}

/** The CreateMessageResult for `reply` from the model called `model` (no `resultType`: it goes in inputResponses). */
export function createMessageResult(reply: ModelReply, model: string): JsonObject {
  const stopReason = MCP_STOP_REASON[reply.stopReason];
  return {
    role: "assistant",
    content: { type: "text", text: messageText(reply.message) },
    model,
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}
