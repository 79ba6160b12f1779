// An incremental reader for `text/event-stream` bodies (the WHATWG "server-sent events" parsing rules):
// bytes in, the `data` of each complete event out, however the stream was cut into chunks.

export interface SseReader {
  /** Feeds the next bytes of the stream; every event completed by them is dispatched before it returns. */
  push(chunk: Uint8Array): void;
  /** The stream is over. "Once the end of the file is reached, any pending data must be discarded." */
  end(): void;
}

/**
 * `onData` receives each event's data: its `data:` lines joined with "\n". Comment lines (`:`) and the
 * `event`, `id` and `retry` fields are read and ignored: MCP 2026 has no event types, ids or resumption.
 */
export function createSseReader(onData: (data: string) => void): SseReader {
  // The default decoder strips a leading BOM, as the SSE rules ask, and keeps a split UTF-8 sequence.
  const decoder = new TextDecoder("utf-8");
  // Pieces of a line that has not ended yet: joined once, when it ends, so a long line costs linear time.
  let halfLine: string[] = [];
  let data: string[] = [];
  // A chunk that ended in "\r" may be followed by the "\n" of the same CRLF in the next chunk.
  let skipLeadingLf = false;
  const lineBreak = /[\r\n]/g;

  function dispatch(): void {
    if (data.length === 0) return;
    const joined = data.join("\n");
    data = [];
    onData(joined);
  }

  function takeLine(line: string): void {
    if (line === "") return dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== "data") return;
    const value = colon === -1 ? "" : line.slice(colon + 1);
    data.push(value.startsWith(" ") ? value.slice(1) : value);
  }

  function read(text: string): void {
    if (text === "") return;
    let start = 0;
    if (skipLeadingLf && text.startsWith("\n")) start = 1;
    skipLeadingLf = false;
    lineBreak.lastIndex = start;
    for (let match = lineBreak.exec(text); match !== null; match = lineBreak.exec(text)) {
      const at = match.index;
      halfLine.push(text.slice(start, at));
      const line = halfLine.length === 1 ? (halfLine[0] ?? "") : halfLine.join("");
      halfLine = [];
      start = at + 1;
      if (text[at] === "\r") {
        if (start === text.length) skipLeadingLf = true;
        else if (text[start] === "\n") start += 1;
      }
      lineBreak.lastIndex = start;
      takeLine(line);
    }
    if (start < text.length) halfLine.push(text.slice(start));
  }

  return {
    push(chunk) {
      read(decoder.decode(chunk, { stream: true }));
    },
    end() {
      read(decoder.decode());
      halfLine = [];
      data = [];
    },
  };
}
