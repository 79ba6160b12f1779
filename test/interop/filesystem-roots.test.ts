import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliNodeArgs, createTempProject, README_TEXT, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { filesystemStdio } from "./test-support/third-party-servers.js";

/**
 * @modelcontextprotocol/server-filesystem 2026.8.31 (2025-11-25, stdio) through the real CLI (`mca call`):
 * the server replaces the folders its arguments name with the client's roots whenever the client declares
 * roots, so a server's `roots` in the config decides where it may work. The server asks for them once it is
 * initialized and applies them when it has checked them, after it has begun to answer: each read waits, in one
 * pipe-mode session, until the server lists the folders it allows now, as a person would look first.
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

  /**
   * One server's read_text_file in pipe mode, once `list_allowed_directories` names `allowed` (asked again
   * after each answer that does not yet: the server applies the roots it asked for in the background).
   */
  async function read(alias: string, path: string, allowed: string): Promise<{ code: number | null; isError: boolean; text: string }> {
    if (project === undefined) throw new Error("no project");
    const home = project.home;
    const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".local", "state"), MOCK: "1" };
    const args = ["--allow", `mcp__${alias}__*`, "--mcp-config", "servers.json"];
    const child = spawn(process.execPath, cliNodeArgs("bundle", args), { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let heard = (): void => undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      heard();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    /** Sends one line and gives what it printed, once its last line (`until`) has come. */
    const send = async (line: string, until: RegExp): Promise<string> => {
      const from = stdout.length;
      const printed = new Promise<void>((resolve) => (heard = () => until.test(stdout.slice(from)) && resolve()));
      child.stdin.write(`${line}\n`);
      await Promise.race([printed, closed.then(() => Promise.reject(new Error(`mca ended early; stderr: ${stderr}`)))]);
      return stdout.slice(from);
    };
    try {
      for (let asked = 1; !(await send(`/call mcp__${alias}__list_allowed_directories {}`, /\n$/u)).includes(allowed); asked += 1) {
        if (asked === 50) throw new Error(`the server never allowed ${allowed}; stderr: ${stderr}`);
      }
      const failedBefore = (stderr.match(/failed; approval/gu) ?? []).length;
      const text = await send(`/call mcp__${alias}__read_text_file ${JSON.stringify({ path })}`, /\n$/u);
      child.stdin.end();
      const code = await closed;
      const isError = (stderr.match(/failed; approval/gu) ?? []).length > failedBefore;
      return { code, isError, text };
    } finally {
      child.kill();
    }
  }

  it('keeps the folders its own arguments name when its config says "roots": false', async () => {
    expect(await read("kept", join(own, "notes.txt"), own)).toEqual({ code: 0, isError: false, text: "in the server's own folder\n" });
  });

  it("works in the project folder by default, and is refused its own folder then", async () => {
    const dir = project?.dir ?? "";
    const refused = await read("project", join(own, "notes.txt"), dir);
    expect(refused).toMatchObject({ code: 1, isError: true });
    expect(refused.text).toContain("Access denied - path outside allowed directories");
    expect(await read("project", join(dir, "README.md"), dir)).toEqual({ code: 0, isError: false, text: README_TEXT });
  });

  it("works in the folders its config lists as roots, and only there", async () => {
    expect(await read("listed", join(listed, "list.txt"), listed)).toEqual({ code: 0, isError: false, text: "in the listed root\n" });
    expect((await read("listed", join(own, "notes.txt"), listed)).text).toContain("Access denied - path outside allowed directories");
  });
});
