import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ListChange, MountedServers } from "../../src/mcp/index.js";
import { startChangingHttpServer } from "./test-support/changing-tools-v2.js";
import { mountConfig, type MountedConfig } from "./test-support/mount-config.js";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const V1_SCRIPT = fileURLToPath(new URL("./test-support/changing-tools-v1.mjs", import.meta.url));
const V2_STDIO_MAIN = fileURLToPath(new URL("./test-support/changing-tools-v2-stdio-main.ts", import.meta.url));

/** A server whose `enable_extra` adds `add_tag` and removes `old_tool`, as an mcpServers entry, and what stops it. */
interface ChangingServer {
  readonly entry: Readonly<Record<string, unknown>>;
  close(): Promise<void>;
}

const VARIANTS: ReadonlyArray<{ readonly name: string; readonly modern: boolean; readonly start: () => Promise<ChangingServer> }> = [
  {
    name: "an SDK v1 (@modelcontextprotocol/sdk 1.32.2) legacy server over stdio, by notifications/tools/list_changed",
    modern: false,
    start: async () => ({ entry: { command: process.execPath, args: [V1_SCRIPT] }, close: async () => undefined }),
  },
  {
    name: "an SDK v2 (@modelcontextprotocol/server 2.4.0) 2026-07-28 server over stdio, on a subscriptions/listen stream",
    modern: true,
    start: async () => ({ entry: { command: process.execPath, args: ["--import", TSX_LOADER, V2_STDIO_MAIN] }, close: async () => undefined }),
  },
  {
    name: "an SDK v2 (@modelcontextprotocol/server 2.4.0) 2026-07-28 server over Streamable HTTP, on a subscriptions/listen stream",
    modern: true,
    start: async () => {
      const server = await startChangingHttpServer();
      return { entry: { type: "http", url: server.url }, close: () => server.close() };
    },
  },
];

/** Polls `check` every 10 ms for up to 5 s (what a subscription's acknowledgement takes to arrive). */
async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 5000) throw new Error("not within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The first change of tools that adds `name`. */
function toolAdded(mounted: MountedServers, name: string): Promise<ListChange> {
  return new Promise((resolve) => {
    const stop = mounted.onListChanged((change) => {
      if (change.kind !== "tools" || !change.added.includes(name)) return;
      stop();
      resolve(change);
    });
  });
}

describe.each(VARIANTS)("tools that change at run time: $name", ({ modern, start }) => {
  let folder = "";
  let server: ChangingServer | undefined;
  let mount: MountedConfig | undefined;

  afterEach(async () => {
    await mount?.mounted.close();
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  async function mountChanging(): Promise<MountedConfig> {
    folder = await mkdtemp(join(tmpdir(), "mca-interop-changing-"));
    server = await start();
    mount = await mountConfig(folder, { changing: server.entry });
    // A modern server reports changes only once the subscription is acknowledged.
    if (modern) await until(() => mount?.mounted.statuses()[0]?.subscribedTo?.includes("tools") === true);
    return mount;
  }

  it("offers a tool the server adds and refuses one it removed, naming the server and the tool", async () => {
    const { mounted, call, toolNames, warnings } = await mountChanging();
    expect(toolNames("changing")).toEqual(["enable_extra", "old_tool", "status"]);
    const oldTool = mounted.tools.find((tool) => tool.originalName === "old_tool");
    const changed = toolAdded(mounted, "add_tag");
    expect(await call("mcp__changing__enable_extra", {})).toEqual({ text: "enabled", isError: false });
    expect(await changed).toEqual({ alias: "changing", kind: "tools", added: ["add_tag"], removed: ["old_tool"], count: 3 });
    expect(toolNames("changing")).toEqual(["add_tag", "enable_extra", "status"]);
    expect(await call("mcp__changing__add_tag", { tag: "urgent" })).toEqual({ text: "tagged urgent", isError: false });
    const refusal = { text: 'MCP server "changing" no longer offers tool "old_tool"', isError: true };
    const signal = AbortSignal.timeout(10_000);
    expect(await mounted.findTool("mcp__changing__old_tool")?.run({}, { signal })).toEqual(refusal);
    expect(await oldTool?.run({}, { signal })).toEqual(refusal);
    expect(warnings).toEqual([]);
  });

  it("keeps hearing changes after /mcp reconnect", async () => {
    const { mounted, call, toolNames } = await mountChanging();
    await mounted.reconnect("changing");
    if (modern) await until(() => mounted.statuses()[0]?.subscribedTo?.includes("tools") === true);
    const changed = toolAdded(mounted, "add_tag");
    await call("mcp__changing__enable_extra", {});
    await changed;
    expect(toolNames("changing")).toEqual(["add_tag", "enable_extra", "status"]);
  });
});
