import { describe, expect, it } from "vitest";
import { createLineFramer } from "./line-framer.js";

function feed(chunks: readonly Buffer[], maxLineBytes?: number): { lines: string[]; error?: string } {
  const framer = createLineFramer(maxLineBytes);
  const lines: string[] = [];
  for (const chunk of chunks) {
    const result = framer.push(chunk);
    if (result instanceof Error) return { lines, error: result.message };
    lines.push(...result);
  }
  return { lines: [...lines, ...framer.end()] };
}

const bytes = (text: string): Buffer => Buffer.from(text, "utf8");

describe("createLineFramer", () => {
  it("returns every complete line of a chunk", () => {
    expect(feed([bytes('{"a":1}\n{"b":2}\n')])).toEqual({ lines: ['{"a":1}', '{"b":2}'] });
  });

  it("keeps the unfinished half line for the next chunk", () => {
    const framer = createLineFramer();
    expect(framer.push(bytes('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(framer.push(bytes(":2"))).toEqual([]);
    expect(framer.push(bytes("}\n"))).toEqual(['{"b":2}']);
  });

  it("decodes a multibyte character split across chunks", () => {
    const whole = bytes("héllo ✓ 😀\n");
    for (let cut = 1; cut < whole.length - 1; cut += 1) {
      expect(feed([whole.subarray(0, cut), whole.subarray(cut)])).toEqual({ lines: ["héllo ✓ 😀"] });
    }
    expect(feed([...whole].map((byte) => Buffer.from([byte])))).toEqual({ lines: ["héllo ✓ 😀"] });
  });

  it("strips a trailing carriage return and skips empty lines", () => {
    expect(feed([bytes("one\r\n\n\r\ntwo\n\n")])).toEqual({ lines: ["one", "two"] });
  });

  it("flushes the last line at the end of the stream", () => {
    expect(feed([bytes("one\ntw"), bytes("o")])).toEqual({ lines: ["one", "two"] });
  });

  it("joins a long line that arrives in many chunks", () => {
    const line = "x".repeat(1024 * 1024);
    const whole = bytes(`${line}\n`);
    const chunks: Buffer[] = [];
    for (let at = 0; at < whole.length; at += 64 * 1024) chunks.push(whole.subarray(at, at + 64 * 1024));
    expect(feed(chunks)).toEqual({ lines: [line] });
  });

  it("accepts a line exactly at the cap", () => {
    expect(feed([bytes("12345678\n")], 8)).toEqual({ lines: ["12345678"] });
  });

  it("fails once a line outgrows the cap, naming the cap, and stays failed", () => {
    const framer = createLineFramer(8);
    expect(framer.push(bytes("ok\n12345"))).toEqual(["ok"]);
    const error = framer.push(bytes("6789"));
    expect(error).toEqual(new Error("a line is longer than 8 bytes (the cap on one message, maxLineBytes)"));
    expect(framer.push(bytes("\nfine\n"))).toBe(error);
    expect(framer.end()).toEqual([]);
  });

  it("by default holds a 50 MB line and refuses one past 64 MiB", () => {
    const mib = Buffer.alloc(1024 * 1024, "x");
    const fifty = createLineFramer();
    for (let i = 0; i < 50; i += 1) fifty.push(mib);
    const line = fifty.push(bytes("\n"));
    expect(Array.isArray(line) ? line.map((text) => text.length) : line).toEqual([50 * 1024 * 1024]);
    const framer = createLineFramer();
    const pushed = Array.from({ length: 65 }, () => framer.push(mib));
    expect(pushed.at(-1)).toEqual(new Error("a line is longer than 67108864 bytes (the cap on one message, maxLineBytes)"));
  });
});
