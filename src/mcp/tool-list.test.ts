import { describe, expect, it } from "vitest";
import { McpError, type JsonObject } from "./jsonrpc.js";
import { isAppOnly } from "./apps.js";
import { collectPages, listServerTools, MAX_LIST_PAGES, MAX_TOOLS_SETTING, readToolList, toolTitle } from "./tool-list.js";

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
    expect(await collectPages(input)).toEqual({ items: [1, 2, 3], cut: false });
    expect(asked).toEqual([undefined, "opaque/+="]);
  });

  it("treats an empty string as a cursor, not as the end", async () => {
    const { asked, input } = pager({ "<first>": { tools: [1], nextCursor: "" }, "": { tools: [2] } });
    expect(await collectPages(input)).toEqual({ items: [1, 2], cut: false });
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

  it("takes a page of 200,000 items whole", async () => {
    const tools = Array.from({ length: 200_000 }, (_, index) => index);
    const { items, cut } = await collectPages(pager({ "<first>": { tools } }).input);
    expect({ length: items.length, last: items.at(-1), cut }).toEqual({ length: 200_000, last: 199_999, cut: false });
  });

  it("stops reading at maxItems: the rest of the page is not kept and no further page is asked for", async () => {
    const { asked, input } = pager({ "<first>": { tools: [1, 2], nextCursor: "a" }, a: { tools: [3, 4, 5], nextCursor: "b" } });
    expect(await collectPages({ ...input, maxItems: 4 })).toEqual({ items: [1, 2, 3, 4], cut: true });
    expect(asked).toEqual([undefined, "a"]);
  });

  it("does not ask for a next page once maxItems are in", async () => {
    const { asked, input } = pager({ "<first>": { tools: [1, 2], nextCursor: "a" } });
    expect(await collectPages({ ...input, maxItems: 2 })).toEqual({ items: [1, 2], cut: true });
    expect(asked).toEqual([undefined]);
  });

  it("is not cut when the last page ends exactly at maxItems", async () => {
    expect(await collectPages({ ...pager({ "<first>": { tools: [1, 2] } }).input, maxItems: 2 })).toEqual({ items: [1, 2], cut: false });
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

  it("keeps the icons a host may load and drops the others, never the tool", () => {
    const icons = [{ src: "https://example.com/t.png", sizes: ["48x48"] }, { src: "javascript:alert(1)" }];
    expect(read([{ name: "t", inputSchema: { type: "object" }, icons }])).toEqual({
      tools: [{ name: "t", inputSchema: { type: "object" }, icons: [{ src: "https://example.com/t.png", sizes: ["48x48"] }] }],
      warnings: [],
    });
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

describe("toolTitle", () => {
  it("is the title, else annotations.title, else undefined (an empty one too)", () => {
    expect([
      toolTitle({ title: "Create ticket", annotations: { title: "Older" } }),
      toolTitle({ annotations: { title: "Older" } }),
      toolTitle({ title: " ", annotations: { title: 7 } }),
      toolTitle({}),
    ]).toEqual(["Create ticket", "Older", undefined, undefined]);
  });
});

describe("isAppOnly", () => {
  it("holds when _meta.ui.visibility lists who may call the tool and leaves out the model", () => {
    const visibility = (value: unknown) => isAppOnly({ _meta: { ui: { resourceUri: "ui://pdf/view.html", visibility: value } } });
    expect([visibility(["app"]), visibility(["model", "app"]), visibility(["model"]), visibility([]), visibility(undefined), visibility("app"), isAppOnly({})]).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("readToolList: the cap on one server's tools", () => {
  const tool = (name: string): { name: string; inputSchema: { type: string } } => ({ name, inputSchema: { type: "object" } });

  it("mounts the first maxTools valid tools and refuses the rest with one warning naming the cap and the setting", () => {
    const warnings: string[] = [];
    const tools = readToolList([tool("a"), "?", tool("b"), tool("c"), tool("d")], (w) => warnings.push(w), { maxTools: 2 });
    expect(tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(warnings).toEqual([
      "dropping a tool from tools/list: a tool is not an object",
      `lists 5 tools: 2 are mounted and the rest are not, since one server offers at most 2 (raise it with ${MAX_TOOLS_SETTING})`,
    ]);
  });

  it("says so when the listing itself was not read to its end", () => {
    const warnings: string[] = [];
    readToolList([tool("a"), tool("b"), tool("c")], (w) => warnings.push(w), { maxTools: 2, cut: true });
    expect(warnings).toEqual([
      `lists more than 3 tools (the listing was read no further): 2 are mounted and the rest are not, since one server offers at most 2 (raise it with ${MAX_TOOLS_SETTING})`,
    ]);
  });

  it("gives no cap warning when the tools fit", () => {
    const warnings: string[] = [];
    expect(readToolList([tool("a"), tool("b")], (w) => warnings.push(w), { maxTools: 2 })).toEqual([tool("a"), tool("b")]);
    expect(warnings).toEqual([]);
  });

  it("names ten dropped tools one by one and counts the rest in one warning", () => {
    const warnings: string[] = [];
    readToolList(Array.from({ length: 1000 }, () => tool("same")), (w) => warnings.push(w));
    expect(warnings.length).toBe(11);
    expect(warnings.at(-1)).toBe("dropping 989 more tools from tools/list (malformed or named twice)");
  });
});

describe("listServerTools", () => {
  it("reads ten times the cap at most: a listing of 300,000 tools over 3 pages stops after the first page", async () => {
    const asked: Array<string | undefined> = [];
    const page = (from: number) => Array.from({ length: 100_000 }, (_, index) => ({ name: `t${from + index}`, inputSchema: {} }));
    const pages: Record<string, JsonObject> = { "<first>": { tools: page(0), nextCursor: "2" }, "2": { tools: page(100_000), nextCursor: "3" }, "3": { tools: page(200_000) } };
    const fetchPage = async (cursor: string | undefined): Promise<JsonObject> => {
      asked.push(cursor);
      return pages[cursor ?? "<first>"] ?? {};
    };
    const warnings: string[] = [];
    const tools = await listServerTools({ server: "many", fetchPage, warn: (w) => warnings.push(w) });
    expect({ count: tools.length, last: tools.at(-1)?.name, asked, warnings }).toEqual({
      count: 1000,
      last: "t999",
      asked: [undefined],
      warnings: [
        `lists more than 10000 tools (the listing was read no further): 1000 are mounted and the rest are not, since one server offers at most 1000 (raise it with ${MAX_TOOLS_SETTING})`,
      ],
    });
  });
});
