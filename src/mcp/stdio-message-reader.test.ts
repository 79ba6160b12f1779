import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "./jsonrpc.js";
import { createStdioMessageReader } from "./stdio-message-reader.js";

function reader(maxLineBytes = 1024) {
  const messages: JsonRpcMessage[] = [];
  const warnings: string[] = [];
  const fatal: string[] = [];
  const read = createStdioMessageReader({
    label: "notes",
    maxLineBytes,
    onMessage: (m) => messages.push(m),
    onWarning: (w) => warnings.push(w),
    onFatal: (e) => fatal.push(e.message),
  });
  return { read, messages, warnings, fatal };
}

describe("createStdioMessageReader", () => {
  it("hands up each JSON-RPC line as a message, including a last line without newline", () => {
    const { read, messages } = reader();
    read.push(Buffer.from('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","id":1,"res'));
    read.push(Buffer.from('ult":{}}'));
    read.end();
    expect(messages).toEqual([
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
  });

  it("counts every line that is not JSON-RPC and warns only about the first", () => {
    const { read, messages, warnings } = reader();
    read.push(Buffer.from('INFO listening\n{"not":"rpc"}\n{"jsonrpc":"2.0","method":"a"}\n'));
    expect(read.ignoredLineCount()).toBe(2);
    expect(messages).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^notes: ignoring a line on stdout that is not JSON-RPC \(not JSON \(.+\)\): "INFO listening"$/);
  });

  it("quotes only the start of a long line", () => {
    const { read, warnings } = reader();
    read.push(Buffer.from(`${"y".repeat(200)}\n`));
    expect(warnings[0]?.endsWith(`"${"y".repeat(80)}…"`)).toBe(true);
  });

  it("reports a line over the cap as fatal, naming the server and the cap, and reads nothing more", () => {
    const { read, messages, fatal } = reader(16);
    read.push(Buffer.from(`${"z".repeat(17)}\n{"jsonrpc":"2.0","method":"a"}\n`));
    read.end();
    expect(fatal).toEqual(["notes: a line is longer than 16 bytes (the cap on one message, maxLineBytes); the connection is closed"]);
    expect(messages).toEqual([]);
  });
});
