import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, README_TEXT, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { filesystemStdio } from "./test-support/third-party-servers.js";

/**
 * @modelcontextprotocol/server-filesystem 2026.8.31 (2025-11-25, stdio) through the real CLI (`mca call`):
 * the server replaces the folders its arguments name with the client's roots whenever the client declares
 * roots, so a server's `roots` in the config decides where it may work.
 */
describe("server-filesystem's folders and the roots mca declares", () => {
  let project: TempProject | undefined;
  /** The folder the server's own arguments name, outside the project. */
  let own = "";
  /** Another folder outside the project, named as the server's roots. */
  let listed = "";

  beforeAll(async () => {
    project = await createTempProject();
    own = await realpath(await mkdtemp(join(tmpdir(), "mca-fs-own-")));
    listed = await realpath(await mkdtemp(join(tmpdir(), "mca-fs-listed-")));
    await writeFile(join(own, "notes.txt"), "in the server's own folder\n");
    await writeFile(join(listed, "list.txt"), "in the listed root\n");
    const mcpServers = {
      kept: { ...filesystemStdio(own), roots: false },
      project: filesystemStdio(own),
      listed: { ...filesystemStdio(own), roots: [listed] },
    };
    await writeFile(join(project.dir, "servers.json"), JSON.stringify({ mcpServers }));
  });

  afterAll(async () => {
    await project?.remove();
    await Promise.all([own, listed].filter((folder) => folder !== "").map((folder) => rm(folder, { recursive: true, force: true })));
  });

  /** `mca call` of one server's read_text_file, without a terminal, as a script would run it. */
  async function read(alias: string, path: string): Promise<{ code: number | null; isError: unknown; text: unknown }> {
    if (project === undefined) throw new Error("no project");
    const tool = `mcp__${alias}__read_text_file`;
    const run = await project.run(["call", tool, JSON.stringify({ path }), "--json", "--allow", tool, "--mcp-config", "servers.json"], "");
    const json: unknown = JSON.parse(run.stdout);
    if (typeof json !== "object" || json === null || !("isError" in json) || !("text" in json)) throw new Error(`not a call's JSON: ${run.stdout}`);
    return { code: run.code, isError: json.isError, text: json.text };
  }

  it('keeps the folders its own arguments name when its config says "roots": false', async () => {
    expect(await read("kept", join(own, "notes.txt"))).toEqual({ code: 0, isError: false, text: "in the server's own folder\n" });
  });

  it("works in the project folder by default, and is refused its own folder then", async () => {
    const refused = await read("project", join(own, "notes.txt"));
    expect(refused).toMatchObject({ isError: true });
    expect(refused.text).toContain("Access denied - path outside allowed directories");
    expect(await read("project", join(project?.dir ?? "", "README.md"))).toEqual({ code: 0, isError: false, text: README_TEXT });
  });

  it("works in the folders its config lists as roots, and only there", async () => {
    expect(await read("listed", join(listed, "list.txt"))).toEqual({ code: 0, isError: false, text: "in the listed root\n" });
    expect((await read("listed", join(own, "notes.txt"))).text).toContain("Access denied - path outside allowed directories");
  });
});
