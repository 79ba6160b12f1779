import { describe, expect, it } from "vitest";
import { isAppResource } from "./apps.js";

describe("isAppResource", () => {
  it("is a ui:// resource, or one of the view's media type", () => {
    expect([
      isAppResource({ uri: "ui://viewer/page.html" }),
      isAppResource({ uri: "https://example.com/v", mimeType: "text/html;profile=mcp-app" }),
      isAppResource({ uri: "https://example.com/v", mimeType: "text/html" }),
      isAppResource({ uri: "file:///ui://x" }),
    ]).toEqual([true, true, false, false]);
  });
});
