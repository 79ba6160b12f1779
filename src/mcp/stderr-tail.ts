// A bounded tail of a server's stderr: kept for `/mcp` and for the message when the server dies, never
// read as protocol (spec §6: the client "SHOULD NOT read it as an error signal").
import { StringDecoder } from "node:string_decoder";

export const STDERR_TAIL_CHARS = 8 * 1024;
export const STDERR_TAIL_LINES = 40;

export interface StderrTail {
  append(chunk: Buffer): void;
  /** The last lines of stderr, without a trailing newline. */
  text(): string;
}

export function createStderrTail(maxChars: number = STDERR_TAIL_CHARS, maxLines: number = STDERR_TAIL_LINES): StderrTail {
  const decoder = new StringDecoder("utf8");
  let tail = "";

  function append(chunk: Buffer): void {
    tail += decoder.write(chunk);
    if (tail.length > maxChars) tail = tail.slice(tail.length - maxChars);
    const lines = tail.split("\n");
    // One more than maxLines: the last element is the line still being written.
    if (lines.length > maxLines + 1) tail = lines.slice(lines.length - maxLines - 1).join("\n");
  }

  function text(): string {
    const lines = tail.replace(/\n+$/, "").split("\n");
    return lines.slice(Math.max(0, lines.length - maxLines)).join("\n");
  }

  return { append, text };
}
