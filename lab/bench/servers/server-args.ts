// The command line every bench server understands: how many tools, how many per page, how slow
// server/discover is (the slow one of the four servers mounted together), and which catalogue workspace.
import { parseArgs } from "node:util";
import type { AnswerOptions } from "./answers.js";

export interface ServerArgs extends AnswerOptions {
  readonly discoverDelayMs: number;
  /** HTTP servers: `json` or `sse` replies (the SDK server); ignored elsewhere. */
  readonly replies: "json" | "sse";
}

function positiveInteger(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, not ${text}`);
  return value;
}

export function readServerArgs(argv: readonly string[]): ServerArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      tools: { type: "string" },
      "page-size": { type: "string" },
      "discover-delay-ms": { type: "string" },
      replies: { type: "string" },
      catalogue: { type: "string" },
    },
  });
  const replies = values.replies ?? "json";
  if (replies !== "json" && replies !== "sse") throw new Error(`--replies is json or sse, not ${replies}`);
  return {
    tools: positiveInteger(values.tools, 1, "tools"),
    pageSize: positiveInteger(values["page-size"], 100, "page-size"),
    discoverDelayMs: positiveInteger(values["discover-delay-ms"], 0, "discover-delay-ms"),
    replies,
    ...(values.catalogue === undefined ? {} : { catalogue: positiveInteger(values.catalogue, 0, "catalogue") }),
  };
}
