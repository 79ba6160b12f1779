// Answers an MCP server's `sampling/createMessage` through the session's model, only with the user's
// consent twice: before the model sees the server's messages, and before its answer goes back. The
// terminal is lent for each question and given back while the model works, so Ctrl-C interrupts as usual.
import type { ChalkInstance } from "chalk";
import type { Model } from "../kernel/index.js";
import type { InputRequest } from "../mcp/index.js";
import type { JsonObject } from "../mcp/index.js";
import type { Asking } from "./elicitation-prompt.js";
import type { Choice } from "./prompt-asker.js";
import { createMessageResult, messageText, samplingPrompt, type SamplingPrompt } from "./sampling-messages.js";
import type { TerminalLender } from "./terminal-lender.js";
import { untrustedText } from "./untrusted-text.js";

const PREVIEW_LINES = 20;

type SamplingRequest = Extract<InputRequest, { kind: "sampling" }>;

export interface SamplingDeps {
  readonly lend: TerminalLender;
  readonly model: Model;
  readonly signal: AbortSignal;
}

/** `abandon`: "the server is not waiting", so the call is given up rather than answered with an error (spec §3). */
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
    // The server's messages get no tools: a sampling request with tools is never declared (input-support.ts).
    reply = await model.complete({ system: prompt.system, messages: prompt.messages, tools: [], signal, onText: () => undefined });
  } catch (error) {
    return { kind: "abandon", reason: `the model failed: ${error instanceof Error ? error.message : String(error)}` };
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
