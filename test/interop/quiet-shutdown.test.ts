import { describe, expect, it } from "vitest";
import { useProjectWithServers } from "./test-support/project-with-servers.js";
import { everythingStdio } from "./test-support/third-party-servers.js";

/**
 * @modelcontextprotocol/server-everything 2026.8.31 (stdio) asks the client for its roots once it is
 * initialized; a one-shot command closes the connection at about that moment, so the request arrives while
 * mca shuts down.
 */
describe("a one-shot command with a server that sends requests as mca closes", () => {
  const project = useProjectWithServers({ everything: everythingStdio() });

  it("drops the server's roots/list without a warning", async () => {
    const runs = await Promise.all([1, 2, 3].map(() => project.run(["tools", "--json"])));
    // A request that arrives in time is answered, and the server may log that it was (its own info line):
    // only a warning about a request mca could not answer is wrong here.
    const warnings = (stderr: string): string[] => stderr.split("\n").filter((line) => line !== "" && !/^mcp: everything info /u.test(line));
    expect(runs.map((run) => ({ code: run.code, warnings: warnings(run.stderr) }))).toEqual([1, 2, 3].map(() => ({ code: 0, warnings: [] })));
  });
});
