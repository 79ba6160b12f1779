import { describe, expect, it } from "vitest";
import { parseMcpConfig } from "../config/index.js";
import { createCliInputResponder } from "./input/responder.js";
import type { ScopedMcpConfig } from "./mcp-servers.js";
import { createSessionServers } from "./session-servers.js";
import { fakeRuntime } from "./test-support/fake-session.js";

const FILE = "/home/u/.config/mca/mcp.json";

/** A config whose one server is disabled: nothing of it is mounted, and it is written in the user's scope. */
function disabledOnly(): ScopedMcpConfig {
  const config = parseMcpConfig(JSON.stringify({ mcpServers: { spare: { command: "node", args: ["spare.js"], enabled: false } } }), FILE, {});
  if (config instanceof Error) throw config;
  return { ...config, origins: new Map([["spare", { scope: "user", file: FILE }]]) };
}

function serversOf(config: ScopedMcpConfig | null) {
  const attached: string[] = [];
  const responder = createCliInputResponder({ interactive: true, projectDir: "/p", notify: () => undefined });
  const inputResponder = { ...responder, attachTerminal: () => void attached.push("terminal") };
  const servers = createSessionServers({ mounted: undefined, config, noneLine: "no MCP servers configured (looked at x)", inputResponder, runtime: fakeRuntime() });
  return { servers, attached };
}

describe("a session's servers when none is mounted", () => {
  it("say so when asked to reconnect, and have no prompts, every listing ended", async () => {
    const { servers } = serversOf(null);
    const reconnected = await servers.reconnect("notes", new AbortController().signal);
    expect([reconnected instanceof Error && reconnected.message, servers.statuses()]).toEqual(["no MCP servers configured", []]);
    expect([servers.prompts().current(), await servers.prompts().settled(), servers.appOnlyTools()]).toEqual([[], [], []]);
  });

  it("list a disabled server with the scope and file it is written in", () => {
    const [status] = serversOf(disabledOnly()).servers.statuses();
    expect(status).toMatchObject({ alias: "spare", state: "disabled", tools: 0, scope: "user", file: FILE });
  });

  it("hand the servers' questions to the terminal a mode lends", () => {
    const { servers, attached } = serversOf(null);
    servers.answerOn(async () => undefined);
    expect(attached).toEqual(["terminal"]);
  });
});
