// What the two hand-written bench servers (raw stdio, plain node:http) answer: server/discover, a paged
// tools/list and one `payload` tool whose text is as long as asked (or, for the scale group, the tools of a
// workspace of the catalogue, each answering like `payload`). No validation: they are anchors.
import { catalogueTool } from "./catalogue.js";

export const PROTOCOL_VERSION = "2026-07-28";
export const PAYLOAD_TOOL = "payload";
/** `payload` answers with a text block of `bytes` ASCII characters. */
export type PayloadArgs = { readonly bytes: number };

export interface AnswerOptions {
  /** How many tools tools/list offers: `payload` and fillers up to this count. */
  readonly tools: number;
  readonly pageSize: number;
  /** Offer the catalogue's tools of this workspace instead of `payload` and fillers. */
  readonly catalogue?: number;
}

type Answer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

const METHOD_NOT_FOUND = -32601;
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "bench", version: "1.0.0" } };
const TOOL_SCHEMA = { type: "object", properties: { bytes: { type: "integer" } } };

function toolAt(options: AnswerOptions, index: number): { name: string; description: string; inputSchema: object } {
  if (options.catalogue !== undefined) return catalogueTool(options.catalogue, index);
  if (index === 0) return { name: PAYLOAD_TOOL, description: "Answers with `bytes` characters of text.", inputSchema: TOOL_SCHEMA };
  return { name: `filler_${String(index).padStart(4, "0")}`, description: `Filler tool number ${index}.`, inputSchema: TOOL_SCHEMA };
}

/** The serialised `result` of a payload call, kept per size: the servers should cost the same for every client. */
const resultJsonBySize = new Map<number, string>();

export function payloadResultJson(bytes: number): string {
  let json = resultJsonBySize.get(bytes);
  if (json === undefined) {
    json = JSON.stringify({ resultType: "complete", content: [{ type: "text", text: "x".repeat(bytes) }], _meta: SERVER_INFO });
    resultJsonBySize.set(bytes, json);
  }
  return json;
}

function readBytes(params: unknown): number {
  if (typeof params !== "object" || params === null || !("arguments" in params)) return 0;
  const args = params.arguments;
  if (typeof args !== "object" || args === null || !("bytes" in args)) return 0;
  return typeof args.bytes === "number" ? args.bytes : 0;
}

function readCursor(params: unknown): number {
  if (typeof params !== "object" || params === null || !("cursor" in params)) return 0;
  return typeof params.cursor === "string" ? Number(params.cursor) : 0;
}

/** The whole JSON-RPC response line (no newline) for a request, or undefined for a notification. */
export function answerLine(options: AnswerOptions, id: unknown, method: string, params: unknown): string {
  const idJson = JSON.stringify(id);
  if (method === "tools/call") return `{"jsonrpc":"2.0","id":${idJson},"result":${payloadResultJson(readBytes(params))}}`;
  return JSON.stringify({ jsonrpc: "2.0", id, ...answer(options, method, params) });
}

function answer(options: AnswerOptions, method: string, params: unknown): Answer {
  switch (method) {
    case "server/discover":
      return {
        result: {
          resultType: "complete",
          supportedVersions: [PROTOCOL_VERSION],
          capabilities: { tools: {} },
          ttlMs: 0,
          cacheScope: "public",
          _meta: SERVER_INFO,
        },
      };
    case "tools/list": {
      const start = readCursor(params);
      const end = Math.min(start + options.pageSize, options.tools);
      const tools = [];
      for (let index = start; index < end; index += 1) tools.push(toolAt(options, index));
      const page = { resultType: "complete", tools, ttlMs: 0, cacheScope: "public", _meta: SERVER_INFO };
      return { result: end < options.tools ? { ...page, nextCursor: String(end) } : page };
    }
    default:
      return { error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } };
  }
}
