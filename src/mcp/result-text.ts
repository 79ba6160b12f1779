// What the model reads for an MCP tool result: text blocks as they are, everything else described in a
// line instead of dumped (base64 images would burn the 8,000-character budget on noise).
import type { CallToolOutcome } from "./call-outcome.js";
import type { ContentBlock } from "./content-block.js";

function sizeOfBase64(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}

export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${sizeOfBase64(block.data)}; not shown as text]`;
    case "resource_link": {
      const about = [block.title ?? block.name, block.mimeType, block.description].filter((part) => part !== undefined);
      return `[resource link ${block.uri}: ${about.join(", ")}]`;
    }
    case "resource": {
      const { uri, mimeType, text, blob } = block.resource;
      if (text !== undefined) return `[resource ${uri}${mimeType ? ` (${mimeType})` : ""}]\n${text}`;
      return `[resource ${uri}${mimeType ? ` (${mimeType})` : ""}, ${sizeOfBase64(blob ?? "")} of binary data; not shown as text]`;
    }
    default: {
      const unknown: never = block;
      throw new Error(`unknown content block ${JSON.stringify(unknown)}`);
    }
  }
}

/** The finished result as one text; structured content is shown only when no block carries text. */
export function completeResultText(outcome: Extract<CallToolOutcome, { kind: "complete" }>): string {
  const parts = outcome.content.map(describeBlock);
  const hasText = outcome.content.some((block) => block.type === "text");
  if (!hasText && outcome.structuredContent !== undefined) parts.push(JSON.stringify(outcome.structuredContent));
  return parts.length === 0 ? "(the tool returned no content)" : parts.join("\n");
}

function describeInputRequest(key: string, request: unknown): string {
  if (typeof request !== "object" || request === null) return `- ${key}: (unreadable request)`;
  const method = "method" in request && typeof request.method === "string" ? request.method : "unknown method";
  const params = "params" in request && typeof request.params === "object" && request.params !== null ? request.params : {};
  const message = "message" in params && typeof params.message === "string" ? `: ${params.message}` : "";
  return `- ${key}: ${method}${message}`;
}

/** An `input_required` result is never finished work: the model is told what the server still needs. */
export function inputRequiredText(alias: string, tool: string, outcome: Extract<CallToolOutcome, { kind: "input_required" }>): string {
  const requests = Object.entries(outcome.inputRequests).map(([key, request]) => describeInputRequest(key, request));
  return [
    `The call did not finish: MCP server "${alias}" needs more input before "${tool}" can complete, and it was not provided.`,
    ...(requests.length > 0 ? ["It asked for:", ...requests] : ["It asked to be called again later."]),
  ].join("\n");
}
