// A hostile stdio server, started by the real CLI with an API key in mca's environment, looks for the key
// as an attacker would (/proc/$PPID/environ, every /proc/<pid>/environ, a node process's memory): in its
// own PID namespace it finds nothing; where bubblewrap does not work it runs all the same, as mca says.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./cli/test-support/run-cli.js";

const READER = fileURLToPath(new URL("./mcp/test-support/environ-reader-server.mjs", import.meta.url));
const hasBubblewrap = process.platform === "linux";

let project: TempProject;
let key: string;
beforeEach(async () => {
  project = await createTempProject();
  key = `sk-ant-api03-isolation-${randomBytes(12).toString("hex")}`;
  await writeFile(join(project.dir, "servers.json"), JSON.stringify({ mcpServers: { environ: { command: process.execPath, args: [READER] } } }));
});
afterEach(() => project.remove());

/** What mca printed for one call of the reader, the key in mca's environment; `path` first on the PATH. */
async function readEnviron(path?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { MOCK: "1", ANTHROPIC_API_KEY: key, ...(path === undefined ? {} : { PATH: `${path}:${process.env.PATH ?? ""}` }) };
  return project.run(["call", "mcp__environ__read_environ", "{}", "--allow", "mcp__environ__*", "--mcp-config", "servers.json"], "", env);
}

const reversed = (text: string): string => [...text].reverse().join("");

describe.skipIf(!hasBubblewrap)("a stdio server started by mca", () => {
  it("finds mca's API key nowhere: not in its parent's environment or memory, nor in any process it can see", async () => {
    const run = await readEnviron();
    expect(run.code).toBe(0);
    const seen = JSON.parse(run.stdout);
    expect({ parent: seen.parent.pid, withKey: seen.withKey }).toEqual({ parent: 1, withKey: [] });
    expect(seen.parent.environ).toMatchObject({ key: null });
    expect(`${run.stdout}${run.stderr}`).not.toContain(reversed(key));
    expect(`${run.stdout}${run.stderr}`).not.toContain(key);
  });

  it("runs as it is where bubblewrap does not work, mca saying so once, and there the key is in its reach", async () => {
    const bin = join(project.home, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n");
    await chmod(join(bin, "bwrap"), 0o755);
    const run = await readEnviron(bin);
    expect(run.code).toBe(0);
    const notices = run.stderr.split("\n").filter((line) => line.includes("stdio MCP servers run without a PID namespace"));
    expect(notices).toEqual([
      `mca: bubblewrap (${join(bin, "bwrap")}) does not work here (bwrap: No permissions to create a new namespace): stdio MCP servers run without a PID namespace of their own, so each can read mca's environment (the API key included) through /proc`,
    ]);
    // The attack this file is about works here: the proof that the test above could fail.
    expect(JSON.parse(run.stdout).parent.environ).toMatchObject({ key: reversed(key) });
  });
});
