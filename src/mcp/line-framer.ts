// Turns a byte stream into newline-delimited lines (stdio carries "one message per line"). Only newly arrived
// bytes are scanned and each line is joined once, so one 50 MB line costs linear time.

/**
 * The default cap on one line (a server's `maxLineBytes` raises it): above the 50 MB results the framer is
 * measured on, and low enough that a 250 MB result fails the connection before it is held whole (a line
 * must be held to its end to be parsed at all, so stdio cannot cut a message as HTTP does).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineFramer {
  /** The lines completed by this chunk (possibly none), or an Error once a line outgrows the cap. */
  push(chunk: Buffer): string[] | Error;
  /** End of stream: the last line, if it had no newline. */
  end(): string[];
}

function decodeLine(bytes: Buffer): string | undefined {
  // UTF-8 is decoded only on whole lines, so a character split across chunks is never mangled.
  const length = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
  return length === 0 ? undefined : bytes.toString("utf8", 0, length);
}

export function createLineFramer(maxLineBytes: number = MAX_LINE_BYTES): LineFramer {
  let parts: Buffer[] = [];
  let partsBytes = 0;
  let failed: Error | undefined;

  const tooLong = (): Error =>
    new Error(`a line is longer than ${maxLineBytes} bytes (the cap on one message, maxLineBytes)`);

  function take(tail: Buffer): Buffer {
    const whole = parts.length === 0 ? tail : Buffer.concat([...parts, tail], partsBytes + tail.length);
    parts = [];
    partsBytes = 0;
    return whole;
  }

  function push(chunk: Buffer): string[] | Error {
    if (failed) return failed;
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (partsBytes + (end - start) > maxLineBytes) {
        failed = tooLong();
        parts = [];
        partsBytes = 0;
        return failed;
      }
      if (newline === -1) {
        if (end > start) {
          parts.push(chunk.subarray(start));
          partsBytes += end - start;
        }
        return lines;
      }
      const line = decodeLine(take(chunk.subarray(start, newline)));
      if (line !== undefined) lines.push(line);
      start = newline + 1;
    }
  }

  function end(): string[] {
    if (failed || partsBytes === 0) return [];
    const line = decodeLine(take(Buffer.alloc(0)));
    return line === undefined ? [] : [line];
  }

  return { push, end };
}
