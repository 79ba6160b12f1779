import { describe, expect, it } from "vitest";
import { startFixtureHttpServer } from "./test-support/sdk-v2-fixture.js";
import { httpSuiteServer, mountForSuite, stdioSuiteServer, type SuiteServer } from "./test-support/suite-mount.js";
import { sdkV2Stdio } from "./test-support/third-party-servers.js";

/** A 2026-07-28 server built with @modelcontextprotocol/server 2.4.0: serveStdio, and createMcpHandler over HTTP. */
const VARIANTS: ReadonlyArray<{
  readonly transport: "stdio" | "http";
  readonly start: () => Promise<SuiteServer>;
}> = [
  { transport: "stdio", start: async () => stdioSuiteServer(sdkV2Stdio()) },
  { transport: "http", start: async () => httpSuiteServer(await startFixtureHttpServer()) },
];

describe.each(VARIANTS)("an SDK v2 server over $transport, mounted from an mcpServers config", ({ transport, start }) => {
  // The SDK v1 client speaks 2025-11-25 to it (the v2 server serves both eras); mca speaks 2026-07-28.
  const { mounted, reference } = mountForSuite({ folderPrefix: "mca-interop-sdk-v2-", alias: "fixture", start });

  it("connects as a modern 2026-07-28 server", () => {
    expect(mounted().mounted.statuses()).toMatchObject([
      { alias: "fixture", transport, state: "connected", protocolVersion: "2026-07-28", tools: 3, error: null },
    ]);
  });

  it("mounts every tool the official SDK v1 client lists from the same server, with the same input schemas", () => {
    const byName = new Map(mounted().mounted.tools.map((tool) => [tool.originalName, tool.inputSchema]));
    expect(mounted().toolNames("fixture")).toEqual(reference().map((tool) => tool.name).sort());
    for (const tool of reference()) expect({ name: tool.name, inputSchema: byName.get(tool.name) }).toEqual(tool);
  });

  it("makes a read-only call", async () => {
    expect(await mounted().call("mcp__fixture__status", {})).toEqual({ text: "fixture up", isError: false });
  });

  it("makes a call with arguments", async () => {
    expect(await mounted().call("mcp__fixture__multiply", { a: 6, b: 7 })).toEqual({ text: "6 x 7 = 42", isError: false });
  });

  it("surfaces the server's error result as an error with its text", async () => {
    expect(await mounted().call("mcp__fixture__refuse", { reason: "not today" })).toEqual({ text: "refused: not today", isError: true });
  });
});
