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

  it("drops the server's roots/list without a warning: stderr stays empty", async () => {
    const runs = await Promise.all([1, 2, 3].map(() => project.run(["tools", "--json"])));
    expect(runs.map((run) => ({ code: run.code, stderr: run.stderr }))).toEqual([1, 2, 3].map(() => ({ code: 0, stderr: "" })));
  });
});
