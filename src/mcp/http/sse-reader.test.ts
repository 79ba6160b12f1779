import { describe, expect, it } from "vitest";
import { createSseReader } from "./sse-reader.js";

const encoder = new TextEncoder();

/** Runs the reader over the given chunks and returns the data of every dispatched event. */
function readChunks(chunks: readonly Uint8Array[]): string[] {
  const events: string[] = [];
  const reader = createSseReader((data) => events.push(data));
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return events;
}

function read(...texts: string[]): string[] {
  return readChunks(texts.map((text) => encoder.encode(text)));
}

describe("createSseReader", () => {
  it("dispatches an event at a blank line", () => {
    expect(read('data: {"a":1}\n\n')).toEqual(['{"a":1}']);
  });

  it("joins multi-line data with \\n", () => {
    expect(read("data: first\ndata: second\ndata:third\n\n")).toEqual(["first\nsecond\nthird"]);
  });

  it("accepts \\r\\n, \\r and \\n line endings, mixed in one stream", () => {
    expect(read("data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r")).toEqual(["a\nb\nc", "d"]);
  });

  it("ignores comment lines and the id and retry fields", () => {
    expect(read(": keep-alive\nevent: message\nid: 7\nretry: 1000\ndata: x\n: another\n\n")).toEqual(["x"]);
  });

  it("keeps the last event id of the last dispatched event, a priming event's with empty data included", () => {
    const reader = createSseReader(() => {});
    expect(reader.lastEventId()).toBe("");
    reader.push(encoder.encode("id: event-1\nretry: 500\ndata: \n\n"));
    expect({ id: reader.lastEventId(), retry: reader.reconnectionTimeMs() }).toEqual({ id: "event-1", retry: 500 });
    reader.push(encoder.encode('id: event-2\ndata: {"a":1}\n\nid: event-3\n'));
    expect(reader.lastEventId()).toBe("event-2");
  });

  it("ignores a retry that is not all digits and an id that contains NUL, as the SSE rules say", () => {
    const reader = createSseReader(() => {});
    reader.push(encoder.encode("id: ok\nretry: 10\n\nid: a\u0000b\nretry: 1e3\ndata: x\n\nretry: -5\n\n"));
    expect({ id: reader.lastEventId(), retry: reader.reconnectionTimeMs() }).toEqual({ id: "ok", retry: 10 });
  });

  it("gives each event its type: the event field, or message without one, never carried to the next event", () => {
    const events: Array<{ data: string; event: string }> = [];
    const reader = createSseReader((data, event) => events.push({ data, event }));
    reader.push(encoder.encode("event: endpoint\ndata: /message?sessionId=1\n\ndata: a\n\nevent: ping\n\ndata: b\n\nevent:message\ndata: c\n\n"));
    reader.end();
    expect(events).toEqual([
      { data: "/message?sessionId=1", event: "endpoint" },
      { data: "a", event: "message" },
      { data: "b", event: "message" },
      { data: "c", event: "message" },
    ]);
  });

  it("removes one leading space from a value, and only one", () => {
    expect(read("data:  two spaces\n\n")).toEqual([" two spaces"]);
  });

  it("treats a bare `data` line as an empty data line", () => {
    expect(read("data\ndata: x\n\n")).toEqual(["\nx"]);
  });

  it("dispatches nothing for an event without data lines", () => {
    expect(read("event: message\nid: 1\n\n\n\ndata: y\n\n")).toEqual(["y"]);
  });

  it("discards an event the stream ends in the middle of", () => {
    expect(read("data: complete\n\ndata: half\n")).toEqual(["complete"]);
  });

  it("strips a byte order mark at the start of the stream", () => {
    expect(read("\uFEFFdata: x\n\n")).toEqual(["x"]);
  });

  it("counts a \\r at the end of one chunk and a \\n at the start of the next as one line break", () => {
    expect(read("data: a\r", "\ndata: b\r\n\r\n")).toEqual(["a\nb"]);
  });

  it("reads the same events however the bytes are split, including inside UTF-8 sequences", () => {
    const stream =
      ': hello\r\ndata: {"text":"Hello, 世界 🎉"}\r\n\r\n' +
      "event: message\rdata: line one\rdata: ünïcödé\r\r" +
      'data: {"id":7}\n: trailing comment\n\n' +
      "data: crlf one\r\ndata: crlf two\r\n\r\n";
    const bytes = encoder.encode(stream);
    const expected = ['{"text":"Hello, 世界 🎉"}', "line one\nünïcödé", '{"id":7}', "crlf one\ncrlf two"];
    expect(readChunks([bytes])).toEqual(expected);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(readChunks([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(expected);
    }
    const oneBytePerChunk = Array.from(bytes, (_, index) => bytes.subarray(index, index + 1));
    expect(readChunks(oneBytePerChunk)).toEqual(expected);
  });

  it("dispatches each event as soon as its blank line arrives", () => {
    const events: string[] = [];
    const reader = createSseReader((data) => events.push(data));
    reader.push(encoder.encode("data: first\n"));
    expect(events).toEqual([]);
    reader.push(encoder.encode("\ndata: second"));
    expect(events).toEqual(["first"]);
    reader.push(encoder.encode("\n\n"));
    expect(events).toEqual(["first", "second"]);
  });

  it("caps each event, not the stream: events up to the cap pass however many there are", () => {
    const events: string[] = [];
    const reader = createSseReader((data) => events.push(data), 10);
    const results = Array.from({ length: 50 }, () => reader.push(encoder.encode("data: 1234\n\n")));
    expect({ events: events.length, errors: results.filter((result) => result !== undefined) }).toEqual({ events: 50, errors: [] });
  });

  it("stops at an event longer than the cap, whether its line ended or not, and dispatches nothing more", () => {
    for (const tooLong of ["data: 12345678901\n", "data: 1234\ndata: 5678", "data: 1234567890123"]) {
      const events: string[] = [];
      const reader = createSseReader((data) => events.push(data), 10);
      const error = reader.push(encoder.encode(`data: ok\n\n${tooLong}`));
      expect({ events, error, next: reader.push(encoder.encode("\n\ndata: later\n\n")) }).toEqual({
        events: ["ok"],
        error: new Error("an event is longer than 10 characters"),
        next: new Error("an event is longer than 10 characters"),
      });
      reader.end();
      expect(events).toEqual(["ok"]);
    }
  });
});
