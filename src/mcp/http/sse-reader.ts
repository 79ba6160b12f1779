// An incremental reader for `text/event-stream` bodies (the WHATWG "server-sent events" parsing rules):
// bytes in, the `data` (and type) of each complete event out, however the stream was cut into chunks, and no event
// held past a cap: a stream may go on for as long as its request, but one event is one message.

export interface SseReader {
  /**
   * Feeds the next bytes of the stream; every event completed by them is dispatched before it returns. An
   * Error once an event outgrows the cap: nothing more is read or dispatched.
   */
  push(chunk: Uint8Array): Error | undefined;
  /** The stream is over. "Once the end of the file is reached, any pending data must be discarded." */
  end(): void;
  /** The last event ID string: the `id` of the last event dispatched (empty ones included), "" before any. */
  lastEventId(): string;
  /** The reconnection time the stream set with a `retry` field, in ms; undefined when it set none. */
  reconnectionTimeMs(): number | undefined;
}

/**
 * `onData` receives each event's data — its `data:` lines joined with "\n" — and its type: the `event`
 * field, "message" when it has none (the old HTTP+SSE transport tells its `endpoint` event apart by it).
 * Comment lines (`:`) are skipped; the `id` and `retry` fields are kept for a resumption (`lastEventId`,
 * `reconnectionTimeMs`), which is the caller's to make.
 */
export function createSseReader(onData: (data: string, event: string) => void, maxEventChars: number = Number.POSITIVE_INFINITY): SseReader {
  // The default decoder strips a leading BOM, as the SSE rules ask, and keeps a split UTF-8 sequence.
  const decoder = new TextDecoder("utf-8");
  // Pieces of a line that has not ended yet: joined once, when it ends, so a long line costs linear time.
  let halfLine: string[] = [];
  let data: string[] = [];
  /** The event's type so far: "" until an `event` field names one. */
  let eventType = "";
  /** "If the field value does not contain U+0000 NULL, then set the last event ID buffer to the field value." */
  let idBuffer = "";
  let lastEventId = "";
  let reconnectionTimeMs: number | undefined;
  /** The characters of the event being read, its half line included; in UTF-16 units, so never more than its bytes. */
  let eventChars = 0;
  let failed: Error | undefined;
  // A chunk that ended in "\r" may be followed by the "\n" of the same CRLF in the next chunk.
  let skipLeadingLf = false;
  const lineBreak = /[\r\n]/g;

  function dispatch(): void {
    // "Set the last event ID string of the event source to the value of the last event ID buffer" comes
    // before the check for empty data: a priming event (an id and no data) still moves the cursor.
    lastEventId = idBuffer;
    const type = eventType === "" ? "message" : eventType;
    eventType = "";
    if (data.length === 0) return;
    const joined = data.join("\n");
    data = [];
    onData(joined, type);
  }

  function takeLine(line: string): void {
    if (line === "") {
      eventChars = 0;
      return dispatch();
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? "" : line.slice(colon + 1);
    const value = raw.startsWith(" ") ? raw.slice(1) : raw;
    if (field === "event") eventType = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\u0000")) idBuffer = value;
    // "If the field value consists of only ASCII digits, then interpret the field value as an integer in base ten."
    else if (field === "retry" && /^[0-9]+$/.test(value)) reconnectionTimeMs = Number(value);
  }

  function read(text: string): void {
    if (text === "") return;
    let start = 0;
    if (skipLeadingLf && text.startsWith("\n")) start = 1;
    skipLeadingLf = false;
    lineBreak.lastIndex = start;
    for (let match = lineBreak.exec(text); match !== null; match = lineBreak.exec(text)) {
      const at = match.index;
      if (outgrown(at - start)) return;
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
    if (start < text.length && !outgrown(text.length - start)) halfLine.push(text.slice(start));
  }

  /** Counts `chars` more of the event; past the cap, the event and the rest of the stream are dropped. */
  function outgrown(chars: number): boolean {
    eventChars += chars;
    if (eventChars <= maxEventChars) return false;
    failed = new Error(`an event is longer than ${maxEventChars} characters`);
    halfLine = [];
    data = [];
    eventType = "";
    return true;
  }

  return {
    push(chunk) {
      if (failed === undefined) read(decoder.decode(chunk, { stream: true }));
      return failed;
    },
    end() {
      if (failed === undefined) read(decoder.decode());
      halfLine = [];
      data = [];
      eventType = "";
    },
    lastEventId: () => lastEventId,
    reconnectionTimeMs: () => reconnectionTimeMs,
  };
}
