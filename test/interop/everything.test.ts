import { describe, expect, it } from "vitest";
import { imageInfo } from "../../src/kernel/index.js";
import { startEverythingHttp } from "./test-support/http-child.js";
import { httpSuiteServer, mountForSuite, stdioSuiteServer, type SuiteServer } from "./test-support/suite-mount.js";
import { everythingStdio } from "./test-support/third-party-servers.js";

/** @modelcontextprotocol/server-everything 2026.8.31: a 2025-11-25 server (SDK v1), over stdio and Streamable HTTP. */
const VARIANTS: ReadonlyArray<{
  readonly transport: "stdio" | "http";
  readonly start: () => Promise<SuiteServer>;
}> = [
  { transport: "stdio", start: async () => stdioSuiteServer(everythingStdio()) },
  { transport: "http", start: async () => httpSuiteServer(await startEverythingHttp()) },
];

describe.each(VARIANTS)("server-everything over $transport, mounted from an mcpServers config", ({ transport, start }) => {
  const { mounted, reference } = mountForSuite({ folderPrefix: "mca-interop-everything-", alias: "everything", start });

  it("connects as a legacy 2025-11-25 server", () => {
    expect(mounted().mounted.statuses()).toMatchObject([
      { alias: "everything", transport, state: "connected", protocolVersion: "2025-11-25", tools: reference().length, error: null },
    ]);
  });

  it("mounts every tool the official SDK client lists, with the same input schemas", () => {
    const byName = new Map(mounted().mounted.tools.map((tool) => [tool.originalName, tool.inputSchema]));
    expect(reference().length).toBeGreaterThan(5);
    expect(mounted().toolNames("everything")).toEqual(reference().map((tool) => tool.name).sort());
    for (const tool of reference()) expect({ name: tool.name, inputSchema: byName.get(tool.name) }).toEqual(tool);
  });

  it("makes a read-only call whose image is passed on as an image, with a line in its place in the text", async () => {
    const result = await mounted().call("mcp__everything__get-tiny-image", {});
    const data = result.images?.[0]?.data ?? "";
    expect({ ...result, images: result.images?.map(imageInfo), header: Buffer.from(data, "base64").subarray(1, 4).toString() }).toEqual({
      text: "Here's the image you requested:\n[image: image/png 20×20, 4 kB]\nThe image above is the MCP logo.",
      isError: false,
      images: [{ mediaType: "image/png", bytes: 4033, width: 20, height: 20 }],
      header: "PNG",
    });
  });

  it("makes calls with arguments", async () => {
    expect(await mounted().call("mcp__everything__get-sum", { a: 2, b: 40 })).toEqual({ text: "The sum of 2 and 40 is 42.", isError: false });
    expect(await mounted().call("mcp__everything__echo", { message: "héllo ✓" })).toEqual({ text: "Echo: héllo ✓", isError: false });
  });

  it("surfaces the server's error result as an error with its text", async () => {
    const result = await mounted().call("mcp__everything__get-sum", { a: "two", b: 40 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Input validation error: Invalid arguments for tool get-sum");
  });
});
