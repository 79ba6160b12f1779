// MCP config files are JSON with comments (VS Code's mcp.json is JSONC; `mca mcp add` keeps a user's
// comments). Comments and trailing commas are blanked out here, each character kept in its place, so the
// strict reader behind it reports every line and column where the user wrote it.
import { createScanner } from "jsonc-parser";

// jsonc-parser's SyntaxKind is a const enum its typings declare; the values it scans are these.
const CLOSE_BRACE = 2;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

/** Spaces for every character but line breaks, so that lines and columns stay where they were. */
function blank(text: string): string {
  return text.replace(/[^\r\n]/g, " ");
}

/**
 * The text with its `//` and `/* *\/` comments and its trailing commas (`[1, 2,]`, `{ "a": 1, }`) turned into
 * spaces; everything else, errors included, is left for the strict reader to find.
 */
export function withoutJsoncExtras(text: string): string {
  const scanner = createScanner(text, false);
  const cuts: { readonly offset: number; readonly length: number }[] = [];
  let comma: number | undefined;
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === LINE_COMMENT || kind === BLOCK_COMMENT) cuts.push({ offset: scanner.getTokenOffset(), length: scanner.getTokenLength() });
    if (kind === LINE_COMMENT || kind === BLOCK_COMMENT || kind === LINE_BREAK || kind === TRIVIA) continue;
    if (comma !== undefined && (kind === CLOSE_BRACE || kind === CLOSE_BRACKET)) cuts.push({ offset: comma, length: 1 });
    comma = kind === COMMA ? scanner.getTokenOffset() : undefined;
  }
  if (cuts.length === 0) return text;
  cuts.sort((a, b) => a.offset - b.offset);
  let result = "";
  let copied = 0;
  for (const { offset, length } of cuts) {
    result += text.slice(copied, offset) + blank(text.slice(offset, offset + length));
    copied = offset + length;
  }
  return result + text.slice(copied);
}
