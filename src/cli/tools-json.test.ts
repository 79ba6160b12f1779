import { describe, expect, it } from "vitest";
import type { Tool } from "../kernel/index.js";
import { runToolsCommand } from "./subcommands.js";
import { createFakeAgent, fakeTool } from "./test-support/fake-agent.js";
import { fakeSession } from "./test-support/fake-session.js";

/** A remote tool as mounted: its server's definition, title and icons included. */
function remoteTool(name: string, extra: Partial<Tool> = {}): Tool {
  return { ...fakeTool(`mcp__apps__${name}`, "remote", "apps"), originalName: name, definitionHash: "h", definitionStatus: { pinned: null, changedThisSession: false }, ...extra };
}

async function toolsJson(tools: readonly Tool[], appOnly: readonly Tool[]): Promise<unknown> {
  const session = fakeSession({ agent: () => createFakeAgent({ tools }), servers: { appOnlyTools: () => appOnly } });
  expect(await runToolsCommand(session, true)).toBe(0);
  return JSON.parse(session.written.out.join(""));
}

describe("mca tools --json", () => {
  it("gives a remote tool's title and icons, and lists the tools kept for a server's app as app-only, refused", async () => {
    const icons = [{ src: "https://example.com/t.png", sizes: ["48x48"] }];
    const ticket = remoteTool("create_ticket", { definition: { name: "create_ticket", title: "Create ticket", inputSchema: { type: "object" } }, icons });
    const page = remoteTool("render_page");
    expect(await toolsJson([ticket], [page])).toEqual([
      {
        name: "mcp__apps__create_ticket",
        title: "Create ticket",
        icons,
        source: "apps",
        originalName: "create_ticket",
        description: "mcp__apps__create_ticket does things",
        approval: { decision: "allow", reason: "default for read tools: allow" },
        definitionHash: "h",
        pinned: null,
        changedThisSession: false,
      },
      {
        name: "mcp__apps__render_page",
        source: "apps",
        originalName: "render_page",
        description: "mcp__apps__render_page does things",
        approval: { decision: "deny", reason: "for its server's app only (MCP Apps): never offered to the model, and a call is refused" },
        definitionHash: "h",
        pinned: null,
        changedThisSession: false,
        appOnly: true,
      },
    ]);
  });
});
