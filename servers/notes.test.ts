import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnTsServer, type ChildLines } from "./test-support/child-lines.js";
import { meta, request, SERVER_INFO_KEY, VERSION } from "./test-support/meta.js";

const SERVER_INFO = { name: "notes", title: "Notes library (mca demo server)", version: "1.0.0" };

describe("notes server (stdio)", () => {
  let notes: ChildLines;

  beforeEach(() => {
    notes = spawnTsServer("servers/notes.ts");
  });
  afterEach(async () => {
    await notes.stop();
  });

  async function call(message: unknown): Promise<unknown> {
    notes.write(`${JSON.stringify(message)}\n`);
    return JSON.parse(await notes.nextLine());
  }

  it("answers server/discover with its versions, capabilities, identity and cache hints", async () => {
    expect(await call(request(1, "server/discover"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        supportedVersions: [VERSION],
        capabilities: { tools: {} },
        resultType: "complete",
        ttlMs: 300_000,
        cacheScope: "public",
        _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
      },
    });
  });

  it("lists its three tools two per page, following the cursor it hands out", async () => {
    const first = await call(request(1, "tools/list"));
    expect(first).toMatchObject({ id: 1, result: { resultType: "complete", ttlMs: 300_000, cacheScope: "public" } });
    const firstPage = pageOf(first);
    expect(firstPage.names).toEqual(["search", "list_notes"]);
    expect(firstPage.nextCursor).toEqual(expect.any(String));

    const second = pageOf(await call(request(2, "tools/list", { cursor: firstPage.nextCursor ?? "" })));
    expect(second).toEqual({ names: ["read_note"], nextCursor: undefined });
  });

  it("rejects a cursor it never handed out with -32602", async () => {
    expect(await call(request(3, "tools/list", { cursor: "not-a-cursor" }))).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32602, message: 'Invalid params: unknown cursor "not-a-cursor"' },
    });
  });

  it("sends the 100,000-character note as one line larger than a pipe read", async () => {
    notes.write(`${JSON.stringify(request(4, "tools/call", { name: "read_note", arguments: { id: "long" } }))}\n`);
    const line = await notes.nextLine();
    expect(line.length).toBeGreaterThan(64 * 1024);
    const response: unknown = JSON.parse(line);
    expect(response).toMatchObject({ id: 4, result: { resultType: "complete", content: [{ type: "text" }] } });
    const text = onlyText(response);
    expect(text).toHaveLength(100_000);
    expect(text.startsWith("Sentence 1 of the long note")).toBe(true);
  });

  it("finds notes with search", async () => {
    const response = await call(request(5, "tools/call", { name: "search", arguments: { query: "SHOPPING" } }));
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: {
        content: [{ type: "text", text: "shopping — Shopping list (67 characters)" }],
        structuredContent: { matches: [{ id: "shopping", title: "Shopping list" }] },
        resultType: "complete",
        _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
      },
    });
  });

  it("answers a line that is not JSON with -32700 and id null, and keeps serving", async () => {
    notes.write("this is not json\n");
    expect(JSON.parse(await notes.nextLine())).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the message is not valid JSON" },
    });
    expect(await call(request(6, "server/discover"))).toMatchObject({ id: 6, result: { resultType: "complete" } });
  });

  it("reassembles a request that arrives in pieces, split inside a UTF-8 character", async () => {
    const bytes = Buffer.from(`${JSON.stringify(request("ü-7", "tools/call", { name: "search", arguments: { query: "ü" } }))}\n`);
    const cut = bytes.indexOf(Buffer.from("ü")) + 1;
    notes.write(bytes.subarray(0, cut));
    await new Promise((resolve) => setTimeout(resolve, 50));
    notes.write(bytes.subarray(cut));
    expect(JSON.parse(await notes.nextLine())).toMatchObject({ id: "ü-7", result: { content: [{ text: 'No note matches "ü".' }] } });
  });

  it("rejects missing _meta keys with -32602 naming them", async () => {
    const response = await call({
      jsonrpc: "2.0",
      id: 8,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" } } },
    });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: {
        code: -32602,
        message:
          "Invalid params: params._meta is missing io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities",
        data: { missing: ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"] },
      },
    });
  });

  it("rejects an unsupported protocol version with -32022 listing the supported ones", async () => {
    const response = await call({
      jsonrpc: "2.0",
      id: 9,
      method: "server/discover",
      params: { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "2025-11-25" }) },
    });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32022, message: "Unsupported protocol version: 2025-11-25", data: { supported: [VERSION], requested: "2025-11-25" } },
    });
  });

  it("answers a legacy initialize (no _meta) with -32022 naming 2026-07-28, before any _meta check", async () => {
    const legacyInitialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } };
    expect(await call(legacyInitialize)).toEqual({
      jsonrpc: "2.0",
      id: 0,
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2025-11-25 (this server speaks 2026-07-28 only: no initialize handshake; every request carries _meta)",
        data: { supported: [VERSION], requested: "2025-11-25" },
      },
    });
  });

  it("answers an unknown method with -32601 and an unknown tool with -32602, echoing the ids", async () => {
    expect(await call(request("a", "initialize"))).toMatchObject({ id: "a", error: { code: -32601 } });
    expect(await call(request("b", "tools/call", { name: "nope", arguments: {} }))).toEqual({
      jsonrpc: "2.0",
      id: "b",
      error: { code: -32602, message: "Unknown tool: nope", data: { name: "nope" } },
    });
  });

  it("exits with status 0 when its stdin closes", async () => {
    notes.child.stdin?.end();
    expect(await notes.exited()).toBe(0);
  });
});

function pageOf(response: unknown): { names: string[]; nextCursor: string | undefined } {
  const result = typeof response === "object" && response !== null && "result" in response ? response.result : undefined;
  if (typeof result !== "object" || result === null || !("tools" in result) || !Array.isArray(result.tools)) {
    throw new Error(`not a tools/list result: ${JSON.stringify(response)}`);
  }
  const names = result.tools.map((tool: { name?: unknown }) => String(tool.name));
  const nextCursor = "nextCursor" in result && typeof result.nextCursor === "string" ? result.nextCursor : undefined;
  return { names, nextCursor };
}

function onlyText(response: unknown): string {
  const result = typeof response === "object" && response !== null && "result" in response ? response.result : undefined;
  const content = typeof result === "object" && result !== null && "content" in result ? result.content : undefined;
  const block: unknown = Array.isArray(content) && content.length === 1 ? content[0] : undefined;
  if (typeof block !== "object" || block === null || !("text" in block) || typeof block.text !== "string") {
    throw new Error(`not a single text block: ${JSON.stringify(response).slice(0, 200)}`);
  }
  return block.text;
}
