import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEverythingHttp } from "./test-support/http-child.js";
import { mountConfig, type MountedConfig } from "./test-support/mount-config.js";

/**
 * @modelcontextprotocol/server-everything 2026.8.31 in its `sse` mode: the old HTTP+SSE transport of
 * 2024-11-05 (GET /sse, then POST /message?sessionId=…), mounted as the config names it and as an "http"
 * URL that answers the POST as the old transport does.
 */
describe.each([
  { type: "sse", shown: { transport: "sse" } },
  { type: "http", shown: { transport: "sse", transportDetected: true } },
])("server-everything over the old HTTP+SSE transport, configured as $type", ({ type, shown }) => {
  let folder = "";
  let mounted: MountedConfig | undefined;
  let stop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "mca-interop-everything-sse-"));
    const server = await startEverythingHttp("sse");
    stop = server.close;
    mounted = await mountConfig(folder, { everything: { type, url: server.url } });
  });
  afterAll(async () => {
    await mounted?.mounted.close();
    await stop();
    await rm(folder, { recursive: true, force: true });
  });

  function mount(): MountedConfig {
    if (mounted === undefined) throw new Error("not mounted");
    return mounted;
  }

  it("connects with the initialize handshake, and says which transport carries it", () => {
    const [status] = mount().mounted.statuses();
    expect({ ...status, toolNames: undefined, recentLogs: undefined, endpoint: undefined, tools: (status?.tools ?? 0) > 5 }).toEqual({
      alias: "everything",
      ...shown,
      state: "connected",
      protocolVersion: "2025-11-25",
      tools: true,
      error: null,
      stderrTail: null,
      toolNames: undefined,
      recentLogs: undefined,
      endpoint: undefined,
      ...(type === "http" ? { sessionRenewals: 0 } : {}),
    });
  });

  it("makes calls whose answers come back on the event stream", async () => {
    expect(await mount().call("mcp__everything__get-sum", { a: 2, b: 40 })).toEqual({ text: "The sum of 2 and 40 is 42.", isError: false });
    expect(await mount().call("mcp__everything__echo", { message: "héllo ✓" })).toEqual({ text: "Echo: héllo ✓", isError: false });
  });
});
