import { describe, expect, it } from "vitest";
import { McpError, type JsonObject } from "./jsonrpc.js";
import { collectPages, MAX_LIST_PAGES, readToolList } from "./tool-list.js";

function pager(pages: Record<string, JsonObject>) {
  const asked: Array<string | undefined> = [];
  const fetchPage = async (cursor: string | undefined): Promise<JsonObject> => {
    asked.push(cursor);
    const page = pages[cursor ?? "<first>"];
    if (!page) throw new Error(`no page for ${String(cursor)}`);
    return page;
  };
  return { asked, input: { server: "notes", method: "tools/list", itemsKey: "tools", fetchPage } };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof McpError ? `${error.kind}, ${String(error.server)}: ${error.message}` : `not an McpError: ${String(error)}`;
}

describe("collectPages", () => {
  it("follows nextCursor until a page arrives without one, passing cursors back untouched", async () => {
    const { asked, input } = pager({
      "<first>": { tools: [1, 2], nextCursor: "opaque/+=" },
      "opaque/+=": { tools: [3], resultType: "complete" },
    });
    expect(await collectPages(input)).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, "opaque/+="]);
  });

  it("treats an empty string as a cursor, not as the end", async () => {
    const { asked, input } = pager({ "<first>": { tools: [1], nextCursor: "" }, "": { tools: [2] } });
    expect(await collectPages(input)).toEqual([1, 2]);
    expect(asked).toEqual([undefined, ""]);
  });

  it("stops with an error when a cursor comes back a second time", async () => {
    const { input } = pager({ "<first>": { tools: [1], nextCursor: "a" }, a: { tools: [2], nextCursor: "a" } });
    expect(await failure(collectPages(input))).toBe(
      'protocol, notes: tools/list page 2: the cursor "a" was already used; the list would never end',
    );
  });

  it("stops with an error after MAX_LIST_PAGES pages", async () => {
    let page = 0;
    const fetchPage = async (): Promise<JsonObject> => ({ tools: [], nextCursor: String((page += 1)) });
    expect(await failure(collectPages({ server: "notes", method: "tools/list", itemsKey: "tools", fetchPage }))).toBe(
      `protocol, notes: tools/list has more than ${MAX_LIST_PAGES} pages`,
    );
    expect(page).toBe(MAX_LIST_PAGES);
  });

  it("rejects a page without its array, a non-string cursor and an input_required page", async () => {
    expect(await failure(collectPages(pager({ "<first>": { items: [] } }).input))).toBe(
      "protocol, notes: tools/list page 1: `tools` is not an array",
    );
    expect(await failure(collectPages(pager({ "<first>": { tools: [], nextCursor: 2 } }).input))).toBe(
      "protocol, notes: tools/list page 1: `nextCursor` is not a string",
    );
    expect(await failure(collectPages(pager({ "<first>": { tools: [], resultType: "input_required" } }).input))).toBe(
      "protocol, notes: tools/list page 1: a list cannot be input_required",
    );
  });
});

describe("readToolList", () => {
  function read(items: unknown[]): { tools: unknown[]; warnings: string[] } {
    const warnings: string[] = [];
    return { tools: readToolList(items, (w) => warnings.push(w)), warnings };
  }

  it("keeps every field verbatim, schemas included", () => {
    const tool = {
      name: "search",
      title: "Search",
      description: "Finds notes",
      inputSchema: { type: "object", $defs: { q: { type: "string" } }, properties: { q: { $ref: "#/$defs/q" } } },
      outputSchema: true,
      annotations: { readOnlyHint: true },
      _meta: { "com.example/x": 1 },
    };
    const [parsed] = readToolList([tool], () => undefined);
    expect(parsed).toEqual(tool);
    expect(parsed?.inputSchema).toBe(tool.inputSchema);
  });

  it("marks a tool whose execution.taskSupport is required, and only that one", () => {
    const schema = { type: "object" };
    const tools = read([
      { name: "job", inputSchema: schema, execution: { taskSupport: "required" } },
      { name: "maybe", inputSchema: schema, execution: { taskSupport: "optional" } },
      { name: "plain", inputSchema: schema, execution: { taskSupport: "forbidden" } },
    ]).tools;
    expect(tools).toEqual([
      { name: "job", inputSchema: schema, taskSupport: "required" },
      { name: "maybe", inputSchema: schema },
      { name: "plain", inputSchema: schema },
    ]);
  });

  it("leaves out the fields a server did not send", () => {
    expect(read([{ name: "t", inputSchema: { type: "object" }, icons: [] }])).toEqual({ tools: [{ name: "t", inputSchema: { type: "object" } }], warnings: [] });
  });

  it("says what is wrong with a malformed tool", () => {
    expect(read([{ inputSchema: {} }, { name: "t" }, { name: "u", inputSchema: {}, annotations: [] }, "?"]).warnings).toEqual([
      "dropping a tool from tools/list: a tool has no name",
      'dropping a tool from tools/list: tool "t": `inputSchema` is not an object',
      'dropping a tool from tools/list: tool "u": `annotations` is not an object',
      "dropping a tool from tools/list: a tool is not an object",
    ]);
  });

  it("keeps the first tool of each name, warning about the others", () => {
    expect(read([{ name: "a", inputSchema: {} }, { name: "a", inputSchema: { type: "object" } }])).toEqual({
      tools: [{ name: "a", inputSchema: {} }],
      warnings: ['dropping a second tool named "a": tool names must be unique per server'],
    });
  });
});
