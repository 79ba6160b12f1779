import { describe, expect, it } from "vitest";
import { McpError } from "./errors.js";
import type { JsonObject } from "./jsonrpc.js";
import { collectPages, MAX_LIST_PAGES } from "./list-pages.js";

function pager(pages: Record<string, JsonObject>) {
  const asked: Array<string | undefined> = [];
  const fetchPage = async (cursor: string | undefined): Promise<JsonObject> => {
    asked.push(cursor);
    const page = pages[cursor ?? "<first>"];
    if (!page) throw new Error(`no page for ${String(cursor)}`);
    return page;
  };
  return { asked, input: { label: "notes", method: "tools/list", itemsKey: "tools", fetchPage } };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof McpError ? `${error.kind}: ${error.message}` : `not an McpError: ${String(error)}`;
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
      'protocol: notes: tools/list page 2: the cursor "a" was already used; the list would never end',
    );
  });

  it("stops with an error after MAX_LIST_PAGES pages", async () => {
    let page = 0;
    const fetchPage = async (): Promise<JsonObject> => ({ tools: [], nextCursor: String((page += 1)) });
    expect(await failure(collectPages({ label: "notes", method: "tools/list", itemsKey: "tools", fetchPage }))).toBe(
      `protocol: notes: tools/list has more than ${MAX_LIST_PAGES} pages`,
    );
    expect(page).toBe(MAX_LIST_PAGES);
  });

  it("rejects a page without its array, a non-string cursor and an input_required page", async () => {
    expect(await failure(collectPages(pager({ "<first>": { items: [] } }).input))).toBe(
      "protocol: notes: tools/list page 1: `tools` is not an array",
    );
    expect(await failure(collectPages(pager({ "<first>": { tools: [], nextCursor: 2 } }).input))).toBe(
      "protocol: notes: tools/list page 1: `nextCursor` is not a string",
    );
    expect(await failure(collectPages(pager({ "<first>": { tools: [], resultType: "input_required" } }).input))).toBe(
      "protocol: notes: tools/list page 1: a list cannot be input_required",
    );
  });
});
