import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mountConfig, type MountedConfig } from "./test-support/mount-config.js";
import { startAskingServer } from "./test-support/sdk-v1-asking-server.js";

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("requests from a legacy SDK v1 server over Streamable HTTP", () => {
  it("are answered by POSTing the response, so the call that sent them completes", async () => {
    const server = await startAskingServer();
    cleanups.push(() => server.close());
    const folder = await mkdtemp(join(tmpdir(), "mca-interop-asking-"));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const mount: MountedConfig = await mountConfig(folder, { asking: { type: "http", url: server.url } });
    cleanups.push(() => mount.mounted.close());

    expect(mount.mounted.statuses()).toMatchObject([{ alias: "asking", state: "connected", protocolVersion: "2025-11-25", tools: 1 }]);
    expect(await mount.call("mcp__asking__ask-client", {})).toEqual({
      text: "ping answered {}; roots/list refused: MCP error -32601: mca does not offer roots/list",
      isError: false,
    });
    expect(server.sessions()).toBe(1);
  });
});
