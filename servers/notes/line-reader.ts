// Newline-delimited framing for the stdio server: keeps the unfinished line for the next chunk, searches
// only the new bytes for "\n", decodes each complete line as UTF-8 (so a character split across chunks
// survives) and flushes the last line at end of input. A line longer than the cap is dropped, reported once.

export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

export type LineHandlers = {
  onLine(line: string): void;
  /** A line grew past `maxLineBytes`; its bytes are discarded up to the next newline. */
  onOversize(maxLineBytes: number): void;
};

export type LineReader = { push(chunk: Buffer): void; end(): void };

export function createLineReader(handlers: LineHandlers, maxLineBytes = MAX_LINE_BYTES): LineReader {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;

  function reset(): void {
    pending = [];
    pendingBytes = 0;
  }

  function tooLong(part: Buffer): boolean {
    if (pendingBytes + part.length <= maxLineBytes) return false;
    reset();
    handlers.onOversize(maxLineBytes);
    return true;
  }

  function finishLine(part: Buffer): void {
    if (skipping) {
      skipping = false;
      return;
    }
    if (tooLong(part)) return;
    const line = Buffer.concat([...pending, part]).toString("utf8").replace(/\r$/, "");
    reset();
    if (line.trim() !== "") handlers.onLine(line);
  }

  /** The unfinished tail of a chunk waits for the next one. */
  function keep(part: Buffer): void {
    if (skipping || part.length === 0) return;
    if (tooLong(part)) {
      skipping = true;
      return;
    }
    pending.push(part);
    pendingBytes += part.length;
  }

  return {
    push(chunk) {
      let start = 0;
      let end = chunk.indexOf(NEWLINE, start);
      while (end !== -1) {
        finishLine(chunk.subarray(start, end));
        start = end + 1;
        end = chunk.indexOf(NEWLINE, start);
      }
      keep(chunk.subarray(start));
    },
    end() {
      if (pendingBytes > 0) finishLine(Buffer.alloc(0));
      reset();
      skipping = false;
    },
  };
}
