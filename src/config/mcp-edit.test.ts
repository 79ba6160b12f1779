import { lstatSync, readFileSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "./config-reader.js";
import { addServer, checkServerEntry, findServer, localMcpFile, removeServer, userMcpFile, type EditContext } from "./mcp-edit.js";

/** A hand-written file: comments of both kinds, three-space indentation, a member on one line, CRLF nowhere. */
const COMMENTED = `// servers I use everywhere
{
   /* keep notes first */
   "mcpServers": {
      "notes":   { "command": "node", "args": ["notes.js"] }, // the demo
      "tickets": {
         "type": "http",   "url": "http://127.0.0.1:7777/mcp"
      }
   },
   "unrelated": [1,2,   3]
}
`;

let root: string;
let context: EditContext;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mca-mcp-edit-"));
  await mkdir(join(root, "project"));
  context = { projectDir: join(root, "project"), env: { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "home", ".config") } };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const GITHUB = { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } };

describe("addServer and removeServer", () => {
  it("keep a user file's comments and formatting: after an add and a remove the file is what it was", async () => {
    const file = userMcpFile(context.env);
    await mkdir(join(root, "home", ".config", "mca"), { recursive: true });
    await writeFile(file, COMMENTED);
    expect(await addServer("user", "github", GITHUB, context)).toEqual({ scope: "user", file, path: ["mcpServers"] });
    const added = await readFile(file, "utf8");
    expect(added).toBe(
      COMMENTED.replace(
        `"tickets": {\n         "type": "http",   "url": "http://127.0.0.1:7777/mcp"\n      }`,
        `"tickets": {\n         "type": "http",   "url": "http://127.0.0.1:7777/mcp"\n      },\n      "github": {\n         "type": "stdio",\n         "command": "npx",\n         "args": [\n            "-y",\n            "@modelcontextprotocol/server-github"\n         ],\n         "env": {\n            "GITHUB_TOKEN": "\${GITHUB_TOKEN}"\n         }\n      }`,
      ),
    );
    expect(await removeServer("user", "github", context)).toEqual([{ scope: "user", file, path: ["mcpServers"] }]);
    expect(await readFile(file, "utf8")).toBe(COMMENTED);
  });

  it("keep the project's .mcp.json as it was after an add and a remove, tabs and comments included", async () => {
    const file = join(context.projectDir, ".mcp.json");
    const tabbed = `{\n\t// shared with the team\n\t"mcpServers": {\n\t\t"notes": { "command": "node" }\n\t}\n}\n`;
    await writeFile(file, tabbed, { mode: 0o644 });
    await addServer("project", "github", GITHUB, context);
    expect(await readFile(file, "utf8")).toContain(`\t\t"github": {\n\t\t\t"type": "stdio",`);
    await removeServer("project", "github", context);
    expect(await readFile(file, "utf8")).toBe(tabbed);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it("keep the local store as it was: a project left without servers loses its entry", async () => {
    const file = localMcpFile(context.env);
    await mkdir(join(root, "home", ".config", "mca"), { recursive: true });
    const store = `{\n  // other projects\n  "projects": {\n    "/elsewhere": { "mcpServers": { "x": { "command": "x" } } }\n  }\n}\n`;
    await writeFile(file, store);
    await addServer("local", "github", GITHUB, context);
    const real = realpathSync(context.projectDir);
    expect(findServer("github", context).found).toEqual([{ place: { scope: "local", file, path: ["projects", real, "mcpServers"] }, entry: GITHUB }]);
    await removeServer("local", "github", context);
    expect(await readFile(file, "utf8")).toBe(store);
  });

  it("create the user's files 0600 in a 0700 folder", async () => {
    await addServer("user", "github", GITHUB, context);
    await addServer("local", "github", GITHUB, context);
    const folder = join(root, "home", ".config", "mca");
    expect([statSync(folder).mode & 0o777, statSync(userMcpFile(context.env)).mode & 0o777, statSync(localMcpFile(context.env)).mode & 0o777]).toEqual([0o700, 0o600, 0o600]);
    expect(JSON.parse(readFileSync(userMcpFile(context.env), "utf8"))).toEqual({ mcpServers: { github: GITHUB } });
  });

  it("refuses an alias the scope has already, in either project file, and writes nothing", async () => {
    const old = `{ "mcpServers": { "github": { "command": "gh" } } }\n`;
    await writeFile(join(context.projectDir, "mcp.config.json"), old);
    const refused = await addServer("project", "github", GITHUB, context);
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused instanceof ConfigError ? refused.detail : "").toBe(
      `"github" is already in the project scope (${join(context.projectDir, "mcp.config.json")}): remove it first (mca mcp remove github -s project)`,
    );
    expect(lstatSync(join(context.projectDir, ".mcp.json"), { throwIfNoEntry: false })).toBeUndefined();
  });

  it("refuses an alias that gives another server's tool names", async () => {
    await addServer("user", "my.server", GITHUB, context);
    const refused = await addServer("user", "my_server", GITHUB, context);
    expect(refused instanceof ConfigError ? refused.detail : refused).toBe(`"my_server" and "my.server" (${userMcpFile(context.env)}) would give the same tool names: choose another name`);
  });

  it("removes from mcp.config.json when that is the project file holding the alias", async () => {
    const file = join(context.projectDir, "mcp.config.json");
    await writeFile(file, `{\n  "mcpServers": {\n    "a": { "command": "a" },\n    "b": { "command": "b" }\n  }\n}\n`);
    expect(await removeServer("project", "a", context)).toEqual([{ scope: "project", file, path: ["mcpServers"] }]);
    expect(await readFile(file, "utf8")).toBe(`{\n  "mcpServers": {\n    "b": { "command": "b" }\n  }\n}\n`);
  });

  it("never edits through a symbolic link put in place of the file", async () => {
    const elsewhere = join(root, "elsewhere.json");
    await writeFile(elsewhere, `{ "mcpServers": {} }\n`);
    symlinkSync(elsewhere, join(context.projectDir, ".mcp.json"));
    const refused = await addServer("project", "github", GITHUB, context);
    expect(refused instanceof ConfigError ? refused.detail : refused).toBe("is a symbolic link: mca edits only a file itself, never through a link");
    expect(await readFile(elsewhere, "utf8")).toBe(`{ "mcpServers": {} }\n`);
  });

  it("refuses to edit a file that is not JSON, naming the place", async () => {
    await writeFile(join(context.projectDir, ".mcp.json"), `{\n  "mcpServers": { "a": }\n}\n`);
    const refused = await addServer("project", "github", GITHUB, context);
    expect(refused instanceof ConfigError ? refused.message : refused).toBe(`${join(context.projectDir, ".mcp.json")}:2:24: not valid JSON: ValueExpected`);
  });
});

describe("checkServerEntry", () => {
  const place = { projectDir: "/p", fromProject: false };

  it("names the problem of an entry the start-up reader would skip", () => {
    const checked = checkServerEntry("api", `{ "type": "http", "url": "ftp://x" }`, "the JSON given", {}, place);
    expect(checked instanceof ConfigError ? [checked.path, checked.detail] : checked).toEqual(["mcpServers.api.url", "must be an http:// or https:// URL"]);
  });

  it("takes a variable not set now, and says which", () => {
    const checked = checkServerEntry("api", `{ "url": "https://\${HOST}/mcp", "headers": { "Authorization": "Bearer \${TOKEN}" } }`, "x", { HOST: "example.com" }, place);
    expect(checked).toEqual({ warnings: [], unsetVariables: ["TOKEN"] });
  });

  it("reads the editors' variables as every scope's file does", () => {
    const checked = checkServerEntry("s", `{ "command": "node", "args": ["\${workspaceFolder}/s.js", "\${userHome}"] }`, "x", { HOME: "/home/u" }, place);
    expect(checked).toEqual({ warnings: [], unsetVariables: [] });
  });

  it("refuses an empty name", () => {
    const checked = checkServerEntry("", `{ "command": "x" }`, "x", {}, place);
    expect(checked instanceof ConfigError ? checked.detail : checked).toBe("a server's name must not be empty");
  });
});
