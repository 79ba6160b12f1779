import { createRequire } from "node:module";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTabCompleter } from "../../src/cli/completion.js";
import { createMentions } from "../../src/cli/mentions.js";
import { createPromptCatalog } from "../../src/cli/prompt-commands.js";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { waitFor } from "../../src/cli/test-support/wait-for.js";
import { mountServers, type MountedServers } from "../../src/mcp/index.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "../../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../../src/model/test-support/sse-replies.js";

const MODEL = "claude-sonnet-5-5";
/** Absolute, so that a child started from another folder finds the loader. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const APPS_V2 = { command: process.execPath, args: ["--import", TSX_LOADER, fileURLToPath(new URL("./test-support/apps-v2-stdio-main.ts", import.meta.url))] };
const COMPLETING_V1 = { command: process.execPath, args: [fileURLToPath(new URL("./test-support/completing-v1-stdio.mjs", import.meta.url))] };

/** Tab in the chat over one real server: its prompts as commands, its resources after `@`, each answer awaited. */
async function tabOver(alias: string, server: { command: string; args: string[] }) {
  const mounted: MountedServers = await mountServers(
    { file: "/tmp/mcp.json", servers: [{ alias, transport: "stdio", env: {}, enabled: true, ...server }] },
    { clientVersion: "0.0.0-test", baseEnv: { PATH: process.env.PATH }, onWarning: () => undefined },
  );
  const listing = new AbortController();
  const catalog = createPromptCatalog(mounted.connections, { warn: () => undefined, signal: listing.signal });
  const mentions = createMentions(mounted.connections);
  mentions.refresh();
  await catalog.settled();
  const tab = createTabCompleter({ commands: [], tools: () => [], projectDir: "/nonexistent", promptCommands: () => catalog.current(), mentions });
  const press = (line: string): Promise<[string[], string]> => new Promise((resolve) => tab(line, (_error, result) => resolve(result)));
  // The template is listed in the background: Tab offers where it starts once it is.
  await waitFor("the resource listing", () => mentions.complete(`@${alias}:gr`).length > 0);
  return {
    press,
    close: async () => {
      listing.abort();
      await mounted.close();
    },
  };
}

const ERAS: ReadonlyArray<readonly [era: string, alias: string, server: { command: string; args: string[] }]> = [
  ["2026-07-28 (SDK v2)", "apps", APPS_V2],
  ["2025-11-25 (SDK v1)", "older", COMPLETING_V1],
];

for (const [era, alias, server] of ERAS) {
  describe(`Tab completion against a ${era} server`, () => {
    let tab: Awaited<ReturnType<typeof tabOver>> | undefined;
    beforeAll(async () => {
      tab = await tabOver(alias, server);
    });
    afterAll(async () => {
      await tab?.close();
    });
    const press = (line: string): Promise<[string[], string]> => {
      if (tab === undefined) throw new Error("no server");
      return tab.press(line);
    };

    it("completes a prompt's argument by position, from the server's completable()", async () => {
      expect(await press(`/mcp__${alias}__review sr`)).toEqual([["src/a.ts", "src/b.ts"], "sr"]);
    });

    it("completes a named argument with the arguments already given as context", async () => {
      expect([await press(`/mcp__${alias}__review src/a.ts focus=s`), await press(`/mcp__${alias}__review test/a.test.ts focus=`)]).toEqual([
        [["focus=speed", "focus=safety"], "focus=s"],
        [["focus=coverage", "focus=flakiness"], "focus="],
      ]);
    });

    it("completes a resource template's variable after @alias:", async () => {
      expect([await press(`see @${alias}:gr`), await press(`see @${alias}:greeting://Al`)]).toEqual([
        [[`@${alias}:greeting://`], `@${alias}:gr`],
        [[`@${alias}:greeting://Alice`, `@${alias}:greeting://Alan`], `@${alias}:greeting://Al`],
      ]);
    });
  });
}

/** The tools of a request, each by name with its description. */
function requestTools(api: FakeMessagesApi, index: number): Array<{ name: unknown; description: unknown }> {
  const body = api.requests[index]?.body;
  const tools = typeof body === "object" && body !== null && "tools" in body && Array.isArray(body.tools) ? body.tools : [];
  return tools.map((tool: unknown) => (typeof tool === "object" && tool !== null && "name" in tool ? { name: tool.name, description: "description" in tool ? tool.description : undefined } : { name: undefined, description: undefined }));
}

/** The text of the tool result the second request carries back. */
function toolResultText(api: FakeMessagesApi): string {
  return JSON.stringify(api.requests[1]?.body ?? null);
}

describe("an SDK v2 server's titled tool and app-only tool", () => {
  let project: TempProject | undefined;
  let configFile = "";
  beforeAll(async () => {
    project = await createTempProject();
    configFile = join(project.dir, "servers.json");
    await writeFile(configFile, JSON.stringify({ mcpServers: { apps: APPS_V2 } }));
  });
  afterAll(async () => {
    await project?.remove();
  });

  it("offers the model the titled tool under its title, never the app-only one, and refuses a call to it unsent", async () => {
    if (project === undefined) throw new Error("no project");
    const api = await startFakeMessagesApi([
      { kind: "stream", events: replyEvents(MODEL, [{ type: "tool_use", id: "t1", name: "mcp__apps__render_page", jsonChunks: ['{"page":1}'] }], "tool_use") },
      { kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["Done."] }], "end_turn") },
    ]);
    try {
      const run = await project.run(["--model", MODEL, "--mcp-config", configFile, "-p", "draw page 1"], "", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
      const remote = requestTools(api, 0).filter((tool) => String(tool.name).startsWith("mcp__"));
      expect({ code: run.code, stdout: run.stdout, remote }).toEqual({
        code: 0,
        stdout: "Done.\n",
        remote: [{ name: "mcp__apps__create_ticket", description: '[MCP server "apps" (stdio), tool "create_ticket", titled "Create ticket"] Opens a ticket' }],
      });
      expect(toolResultText(api)).toContain('not callable by the model: MCP server \\"apps\\" made tool \\"render_page\\" for its app\'s view only');
    } finally {
      await api.close();
    }
  });

  it("lists the titled tool's title and the icons a host may load in mca tools --json", async () => {
    if (project === undefined) throw new Error("no project");
    const run = await project.run(["tools", "--json", "--mcp-config", configFile], "", {});
    const tools: unknown = JSON.parse(run.stdout);
    const ticket = Array.isArray(tools) ? tools.find((tool: unknown) => typeof tool === "object" && tool !== null && "name" in tool && tool.name === "mcp__apps__create_ticket") : undefined;
    expect(ticket).toMatchObject({ name: "mcp__apps__create_ticket", title: "Create ticket", icons: [{ src: "https://example.com/ticket.png", mimeType: "image/png", sizes: ["48x48"] }] });
    // The app-only tool is listed too, marked, with the verdict that keeps it from the model.
    const page = Array.isArray(tools) ? tools.find((tool: unknown) => typeof tool === "object" && tool !== null && "originalName" in tool && tool.originalName === "render_page") : undefined;
    expect(page).toMatchObject({ source: "apps", appOnly: true });
  });

  it("lists the server's ui:// view in /mcp as an MCP App view that needs a host to render it", async () => {
    if (project === undefined) throw new Error("no project");
    const run = await project.run(["--mcp-config", configFile], "/mcp\n", { MOCK: "1" });
    const from = run.stdout.split("\n").findIndex((line) => line.startsWith("MCP Apps views"));
    expect(run.stdout.split("\n").slice(from, from + 2)).toEqual([
      "MCP Apps views (an MCP App view: it needs a host that renders MCP Apps, which mca does not):",
      "  apps  ui://viewer/page.html  PDF viewer",
    ]);
  });
});
