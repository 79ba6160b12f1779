import { describe, expect, it } from "vitest";
import { parseMessage } from "./jsonrpc.js";

function errorText(text: string): string {
  const parsed = parseMessage(text);
  return parsed instanceof Error ? parsed.message : "parsed";
}

describe("parseMessage", () => {
  it("parses a success response", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}')).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { tools: [] },
    });
  });

  it("parses an error response, keeping code, message and data", () => {
    expect(
      parseMessage('{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"nope","data":{"supported":[]}}}'),
    ).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32022, message: "nope", data: { supported: [] } } });
  });

  it("parses a notification, with and without params", () => {
    expect(parseMessage('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}')).toEqual({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progress: 1 },
    });
    expect(parseMessage('{"jsonrpc":"2.0","method":"notifications/x"}')).toEqual({
      jsonrpc: "2.0",
      method: "notifications/x",
    });
  });

  it("parses a request and gives it empty params when it has none", () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","method":"ping"}')).toEqual({
      jsonrpc: "2.0",
      id: "a",
      method: "ping",
      params: {},
    });
  });

  it("says what is wrong with a malformed frame", () => {
    expect(errorText("[INFO] server ready")).toMatch(/^not JSON \(/);
    expect(errorText("[1,2]")).toBe("not a JSON-RPC message: not a JSON object");
    expect(errorText('{"id":1,"result":{}}')).toBe('not a JSON-RPC message: `jsonrpc` is not "2.0"');
    expect(errorText('{"jsonrpc":"2.0","id":1,"result":5}')).toBe("`result` is not an object");
    expect(errorText('{"jsonrpc":"2.0","id":{},"result":{}}')).toBe(
      "a result's `id` is neither a string nor a number",
    );
    expect(errorText('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}')).toBe(
      "a response has both `result` and `error`",
    );
    expect(errorText('{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}')).toBe(
      "`error.code` is not an integer",
    );
    expect(errorText('{"jsonrpc":"2.0","method":7}')).toBe("`method` is not a string");
    expect(errorText('{"jsonrpc":"2.0","method":"m","params":[1]}')).toBe("`params` is not an object");
    expect(errorText('{"jsonrpc":"2.0","id":1}')).toBe("neither a request, a notification nor a response");
  });
});
