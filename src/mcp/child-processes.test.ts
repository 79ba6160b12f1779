import { afterEach, describe, expect, it } from "vitest";
import { killAllChildrenSync, liveChildren } from "./child-processes.js";
import { McpError } from "./errors.js";
import { isJsonObject } from "./jsonrpc.js";
import { createPeer } from "./peer.js";
import { createStdioTransport, type StdioTransport } from "./stdio-transport.js";
import { scriptedStdioServer, waitUntilGone } from "./test-support/scripted-stdio-server.js";

const META = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };
const opened: StdioTransport[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
});

describe("killAllChildrenSync", () => {
  it("kills every live server's whole process group at once and forgets them", async () => {
    const transport = createStdioTransport({
      label: "scripted",
      ...scriptedStdioServer("--grandchild", "--ignore-stdin-eof", "--ignore-sigterm"),
    });
    opened.push(transport);
    const peer = createPeer({ transport, requestTimeoutMs: 10_000, onNotification: () => undefined });
    await peer.start();
    const { structuredContent: pids } = await peer.request("tools/call", { name: "pids", ...META });
    if (!isJsonObject(pids) || typeof pids.server !== "number" || typeof pids.grandchild !== "number") throw new Error("no pids");
    expect(liveChildren()).toEqual([pids.server]);

    const pending = peer.request("tools/call", { name: "never", ...META }).catch((error: unknown) => error);
    killAllChildrenSync();
    expect(liveChildren()).toEqual([]);
    expect(await pending).toEqual(new McpError("closed", "scripted exited with code none (signal SIGKILL); stderr: (empty)"));
    expect([await waitUntilGone(pids.server, 2000), await waitUntilGone(pids.grandchild, 2000)]).toEqual([true, true]);
  });
});
