// End to end: `mca tools`, `mca call` and `mca mcp list` as scripts see them (the scripting contract, docs/scripting.md).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
});

afterEach(async () => {
  await project.remove();
});

describe("mca subcommands", () => {
  it("tools --json lists every tool with its source and approval", async () => {
    const run = await project.run(["tools", "--json", "--deny", "bash"], "");
    expect(run.code).toBe(0);
    const local = (name: string, decision: string, reason: string) => ({
      name,
      source: "local",
      originalName: name,
      description: expect.any(String),
      approval: { decision, reason },
    });
    expect(JSON.parse(run.stdout)).toEqual([
      local("read_file", "allow", "default for read tools: allow"),
      local("write_file", "ask", "default for write tools: ask"),
      local("edit_file", "ask", "default for write tools: ask"),
      local("list_dir", "allow", "default for read tools: allow"),
      local("search", "allow", "default for read tools: allow"),
      local("bash", "deny", 'rule "bash" (deny) from --deny'),
    ]);
  });

  it("call --json reports a successful call, with nothing on stderr even without a key", async () => {
    const run = await project.run(["call", "read_file", '{"path":"README.md"}', "--json"], "", {});
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(JSON.parse(run.stdout)).toEqual({
      tool: "read_file",
      isError: false,
      text: expect.stringContaining("hello from the readme"),
      truncated: false,
      approval: { decision: "allow", reason: "default for read tools: allow" },
    });
  });

  it("call --json reports a denied call and exits 1", async () => {
    const run = await project.run(["call", "write_file", '{"path":"x.txt","content":"x"}', "--json"], "");
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      tool: "write_file",
      isError: true,
      text: expect.any(String),
      truncated: false,
      approval: { decision: "ask", reason: "default for write tools: ask" },
    });
    expect(run.stderr).toContain('not run: write_file needs approval and there is no terminal to ask on; run mca with --allow "write_file" to allow it');
  });

  it("call with arguments that are not JSON is a usage error", async () => {
    const run = await project.run(["call", "read_file", "{path"], "");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mca call: invalid JSON arguments for read_file: /);
    expect(run.stdout).toBe("");
  });

  it("a tool that does not exist is a person's usage error naming the closest tools, in mca call and /call", async () => {
    const run = await project.run(["call", "read_fil", "{}"], "");
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mca call: there is no tool named "read_fil"; did you mean read_file? (`mca tools` lists them all)\n',
    });
    const piped = await project.run([], "/call nosuchtool {}\n");
    expect(piped.code).toBe(1);
    expect(piped.stderr).toContain('/call: there is no tool named "nosuchtool" (`mca tools` lists them all)');
    expect(piped.stdout + piped.stderr).not.toContain("tools you were given");
  });

  it("mcp list --json is an empty array while no server is configured", async () => {
    const run = await project.run(["mcp", "list", "--json"], "");
    expect(run).toEqual({ code: 0, stdout: "[]\n", stderr: "" });
  });

  it("prints the same plain views as /tools and /mcp without --json", async () => {
    const piped = await project.run([], "/tools\n");
    const tools = await project.run(["tools"], "");
    expect(tools).toEqual({ code: 0, stdout: piped.stdout, stderr: "" });
    expect(await project.run(["mcp", "list"], "")).toEqual({
      code: 0,
      stdout: "no MCP servers configured (looked at ~/.config/mca/local-mcp.json, mcp.config.json, .mcp.json, ~/.config/mca/mcp.json)\n",
      stderr: "",
    });
  });
});
