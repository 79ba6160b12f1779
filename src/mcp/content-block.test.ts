import { describe, expect, it } from "vitest";
import { parseContentBlocks } from "./content-block.js";

describe("parseContentBlocks", () => {
  it("reads every kind of block, keeping annotations and _meta", () => {
    const blocks = [
      { type: "text", text: "hi", annotations: { audience: ["user"] }, _meta: { k: 1 } },
      { type: "image", data: "aGk=", mimeType: "image/png" },
      { type: "audio", data: "aGk=", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a", name: "a", title: "A", size: 3 },
      { type: "resource", resource: { uri: "file:///b", mimeType: "text/plain", text: "b" } },
    ];
    expect(parseContentBlocks(blocks)).toEqual(blocks);
  });

  it("leaves out optional fields of the wrong type", () => {
    expect(parseContentBlocks([{ type: "text", text: "hi", annotations: null, extra: 1 }])).toEqual([{ type: "text", text: "hi" }]);
  });

  it("names the block and the missing field", () => {
    expect(parseContentBlocks([{ type: "text", text: "ok" }, { type: "image", data: "x" }])).toEqual(
      new Error('content[1]: a "image" block has no string `mimeType`'),
    );
    expect(parseContentBlocks([{ type: "resource", resource: {} }])).toEqual(
      new Error('content[0]: a "resource" block has no string `resource.uri`'),
    );
  });

  it("rejects an unknown block type and a content that is not an array", () => {
    expect(parseContentBlocks([{ type: "video" }])).toEqual(new Error('content[0]: unknown type "video"'));
    expect(parseContentBlocks("text")).toEqual(new Error("`content` is not an array"));
  });
});
