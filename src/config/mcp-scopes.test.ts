import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ConfigError } from "./config-reader.js";
import type { McpConfigFile } from "./mcp-config.js";
import { localMcpFile, userMcpFile } from "./mcp-edit.js";
import { mergeScopes, readScopeSource, unreadHostFiles, userScopeSources, type ScopeSource } from "./mcp-scopes.js";

const root = tempProjectPerTest("mca-scopes-");

/** A temporary HOME with its config folder, and a project folder beside it. */
function places(): { readonly env: { HOME: string; XDG_CONFIG_HOME: string }; readonly projectDir: string } {
  const home = join(root(), "home");
  const projectDir = join(root(), "project");
  mkdirSync(join(home, ".config", "mca"), { recursive: true });
  mkdirSync(projectDir);
  return { env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") }, projectDir: realpathSync(projectDir) };
}

function read(source: ScopeSource, context: { readonly env: Record<string, string>; readonly projectDir: string }): { source: ScopeSource; config: McpConfigFile } {
  const config = readScopeSource(source, context);
  if (config === null || config instanceof ConfigError) throw new Error(`expected a config, got ${config === null ? "none" : config.message}`);
  return { source, config };
}

const servers = (entries: Record<string, unknown>): string => JSON.stringify({ mcpServers: entries }, null, 2);

describe("readScopeSource", () => {
  it("reads the user's servers to run in the project folder, whatever folder their file is in", () => {
    const context = places();
    writeFileSync(userMcpFile(context.env), servers({ fs: { command: "server-fs", args: ["."] }, tools: { command: "t", cwd: "sub" } }));
    const { user } = userScopeSources(context);
    expect(read(user, context).config.servers).toEqual([
      { alias: "fs", transport: "stdio", command: "server-fs", args: ["."], env: {}, cwd: context.projectDir, enabled: true },
      { alias: "tools", transport: "stdio", command: "t", args: [], env: {}, cwd: join(context.projectDir, "sub"), enabled: true },
    ]);
  });

  it("reads the local store's entry for this project only, naming positions in the store", () => {
    const context = places();
    const store = { projects: { "/elsewhere": { mcpServers: { other: { command: "o" } } }, [context.projectDir]: { mcpServers: { mine: { command: "m" }, bad: { args: [] } } } } };
    writeFileSync(localMcpFile(context.env), JSON.stringify(store, null, 2));
    const { local } = userScopeSources(context);
    const { config } = read(local, context);
    expect(config.servers.map((server) => server.alias)).toEqual(["mine"]);
    expect(config.skipped.map(({ alias, error }) => ({ alias, path: error.path, line: error.position?.line }))).toEqual([
      { alias: "bad", path: `projects[${JSON.stringify(context.projectDir)}].mcpServers.bad.command`, line: 15 },
    ]);
  });

  it("has nothing for a project the local store does not name, or a scope without a file", () => {
    const context = places();
    writeFileSync(localMcpFile(context.env), JSON.stringify({ projects: { "/elsewhere": { mcpServers: {} } } }));
    const { user, local } = userScopeSources(context);
    expect([readScopeSource(local, context), readScopeSource(user, context)]).toEqual([null, null]);
  });
});

describe("mergeScopes", () => {
  it("takes each alias from the narrowest scope that has it, and says so once per alias", () => {
    const context = places();
    const source = (scope: ScopeSource["scope"], file: string, text: string): ScopeSource => ({ scope, file, text });
    const user = source("user", "/u/mcp.json", servers({ notes: { command: "user-notes" }, web: { url: "https://example.com/mcp" } }));
    const project = source("project", join(context.projectDir, "mcp.config.json"), servers({ notes: { command: "project-notes" }, "my.tool": { command: "t" } }));
    const local = source("local", "/u/local-mcp.json", JSON.stringify({ projects: { [context.projectDir]: { mcpServers: { my_tool: { command: "mine" } } } } }));
    const merged = mergeScopes([read(user, context), read(project, context), read(local, context)]);
    expect(merged.config.servers.map((server) => [server.alias, server.transport === "stdio" ? server.command : server.url])).toEqual([
      ["my_tool", "mine"],
      ["notes", "project-notes"],
      ["web", "https://example.com/mcp"],
    ]);
    expect(merged.origins).toEqual(
      new Map([
        ["my_tool", { scope: "local", file: "/u/local-mcp.json" }],
        ["notes", { scope: "project", file: join(context.projectDir, "mcp.config.json") }],
        ["web", { scope: "user", file: "/u/mcp.json" }],
      ]),
    );
    expect(merged.overrides).toEqual([
      `server "my_tool" (and "my.tool", the same tool names): the local scope's entry (/u/local-mcp.json) is used, not the project scope's (${join(context.projectDir, "mcp.config.json")})`,
      `server "notes": the project scope's entry (${join(context.projectDir, "mcp.config.json")}) is used, not the user scope's (/u/mcp.json)`,
    ]);
  });

  it("lets a narrower entry that is skipped shadow a broader one all the same, and keeps each server's tool limit", () => {
    const context = places();
    const user = read({ scope: "user", file: "/u/mcp.json", text: servers({ a: { command: "a" }, b: { command: "b", excludeTools: ["x"] } }) }, context);
    const project = read({ scope: "project", file: join(context.projectDir, ".mcp.json"), text: servers({ a: { command: "${UNSET}" } }) }, context);
    const merged = mergeScopes([user, project]);
    expect(merged.config.servers.map((server) => server.alias)).toEqual(["b"]);
    expect(merged.config.skipped.map((entry) => entry.alias)).toEqual(["a"]);
    expect(merged.config.toolLimits).toEqual(new Map([["b", { exclude: ["x"] }]]));
  });
});

describe("unreadHostFiles", () => {
  it("names the editors' project files with servers the scopes lack, each read under its own host's key as `mca mcp import` reads it", () => {
    const { projectDir } = places();
    mkdirSync(join(projectDir, ".cursor"));
    mkdirSync(join(projectDir, ".vscode"));
    mkdirSync(join(projectDir, ".gemini"));
    writeFileSync(join(projectDir, ".cursor", "mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "n" }, web: { url: "https://example.com/mcp" } }, servers: { other: { command: "o" } } }));
    writeFileSync(join(projectDir, ".vscode", "mcp.json"), '{\n  // VS Code keeps them under "servers"\n  "servers": { "fetch": { "command": "uvx" }, },\n}');
    writeFileSync(join(projectDir, ".gemini", "settings.json"), servers({ g: { command: "g" } }));
    expect(unreadHostFiles(projectDir, new Set(["web"]))).toEqual([
      { host: "cursor", file: join(projectDir, ".cursor", "mcp.json"), aliases: ["notes"] },
      { host: "vscode", file: join(projectDir, ".vscode", "mcp.json"), aliases: ["fetch"] },
    ]);
    expect(unreadHostFiles(projectDir, new Set(["notes", "web", "fetch"]))).toEqual([]);
  });
});
