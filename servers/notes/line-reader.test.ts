import { describe, expect, it } from "vitest";
import { createLineReader } from "./line-reader.js";

function collect(maxLineBytes?: number): { lines: string[]; oversize: number[]; reader: ReturnType<typeof createLineReader> } {
  const lines: string[] = [];
  const oversize: number[] = [];
  const reader = createLineReader({ onLine: (line) => lines.push(line), onOversize: (max) => oversize.push(max) }, maxLineBytes);
  return { lines, oversize, reader };
}

describe("createLineReader", () => {
  it("keeps a half line for the next chunk", () => {
    const { lines, reader } = collect();
    reader.push(Buffer.from('{"a":1}\n{"b"'));
    reader.push(Buffer.from(':2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("decodes a UTF-8 character split across chunks", () => {
    const { lines, reader } = collect();
    const bytes = Buffer.from("überblick\n");
    reader.push(bytes.subarray(0, 1));
    reader.push(bytes.subarray(1));
    expect(lines).toEqual(["überblick"]);
  });

  it("strips a carriage return and skips blank lines", () => {
    const { lines, reader } = collect();
    reader.push(Buffer.from("one\r\n\n  \ntwo\n"));
    expect(lines).toEqual(["one", "two"]);
  });

  it("flushes the last line at end of input", () => {
    const { lines, reader } = collect();
    reader.push(Buffer.from("first\nlast"));
    reader.end();
    expect(lines).toEqual(["first", "last"]);
  });

  it("drops a line longer than the cap, reports it once, and reads the next line", () => {
    const { lines, oversize, reader } = collect(8);
    reader.push(Buffer.from("0123456"));
    reader.push(Buffer.from("789abc"));
    reader.push(Buffer.from("def\nok\n"));
    expect({ lines, oversize }).toEqual({ lines: ["ok"], oversize: [8] });
  });

  it("drops a too-long line that arrives whole in one chunk", () => {
    const { lines, oversize, reader } = collect(4);
    reader.push(Buffer.from("123456789\nok\n"));
    expect({ lines, oversize }).toEqual({ lines: ["ok"], oversize: [4] });
  });
});
