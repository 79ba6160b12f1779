import { fileURLToPath } from "node:url";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { offerChangedTools } from "../../src/cli/run-invocation.js";
import { createAgent, type Message, type ModelRequest } from "../../src/kernel/index.js";
import { fakeTool, memorySnapshots, memoryTranscript, reply, scriptedModel, text, use } from "../../src/kernel/test-support/fakes.js";
import { mountConfig, type MountedConfig } from "./test-support/mount-config.js";

const V1_SCRIPT = fileURLToPath(new URL("./test-support/changing-tools-v1.mjs", import.meta.url));

function toolResults(messages: readonly Message[]): { text: string; isError: boolean }[] {
  return messages.flatMap((message) =>
    message.role === "user" ? message.content.flatMap((block) => (block.type === "tool_result" ? [{ text: block.text, isError: block.isError }] : [])) : [],
  );
}

/** The session's agent as every mode runs it, over an SDK v1 (1.32.2) stdio server whose tools change at run time. */
describe("an agent over a server whose tools change", () => {
  let folder = "";
  let mount: MountedConfig | undefined;

  afterEach(async () => {
    await mount?.mounted.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("offers the new tool from the next model request, keeps its local tools, refuses the removed one and tells the user once", async () => {
    folder = await mkdtemp(join(tmpdir(), "mca-interop-changing-agent-"));
    mount = await mountConfig(folder, { notes: { command: process.execPath, args: [V1_SCRIPT] } });
    const { mounted } = mount;
    const offered: string[][] = [];
    const seeing = (step: () => ReturnType<typeof reply>) => (request: ModelRequest) => {
      offered.push(request.tools.map((tool) => tool.name));
      return step();
    };
    const model = scriptedModel([
      seeing(() => reply(use("1", "mcp__notes__enable_extra"))),
      seeing(() => reply(text("enabled"))),
      seeing(() => reply(use("2", "mcp__notes__add_tag", { tag: "urgent" }), use("3", "mcp__notes__old_tool"))),
      seeing(() => reply(text("done"))),
    ]);
    const lines: string[] = [];
    const agent = createAgent({
      model,
      tools: [fakeTool({ name: "read_file" }), ...mounted.tools],
      findTool: mounted.findTool,
      rules: [],
      system: "test",
      snapshots: memorySnapshots(),
      transcript: memoryTranscript(),
      approve: async () => "session",
      emit: () => undefined,
    });
    offerChangedTools(mounted, agent, (line) => lines.push(line));
    const changed = new Promise<void>((resolve) => mounted.onListChanged((change) => change.kind === "tools" && change.added.length > 0 && resolve()));
    await agent.prompt("enable the extra tools", AbortSignal.timeout(10_000));
    await changed;
    await agent.prompt("tag it, then use the old tool", AbortSignal.timeout(10_000));
    const before = ["read_file", "mcp__notes__enable_extra", "mcp__notes__old_tool", "mcp__notes__status"];
    const after = ["read_file", "mcp__notes__add_tag", "mcp__notes__enable_extra", "mcp__notes__status"];
    expect({ offered: offered.slice(0, 1).concat(offered.slice(2, 3)), results: toolResults(agent.messages), lines }).toEqual({
      offered: [before, after],
      results: [
        { text: "enabled", isError: false },
        { text: "tagged urgent", isError: false },
        { text: 'MCP server "notes" no longer offers tool "old_tool"', isError: true },
      ],
      lines: ["mcp: notes: tools changed: +add_tag, \u2212old_tool (now 3 tools)"],
    });
  });
});
