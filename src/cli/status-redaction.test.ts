// End to end through the real CLI: a server's status is redacted where it leaves mca (the run's output), with
// every secret the run knows, not only the ones its own entry holds: here the model's API key, which a
// broken server writes to its stderr, and which its status quotes as its error and stderr tail.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";

const API_KEY = "sk-ant-api03-status-secret-0123456789";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
  const config = join(project.home, ".config", "mca", "mcp.json");
  await mkdir(join(config, ".."), { recursive: true });
  // The key is no secret of this entry (no env, no header): only the run's redactor knows it.
  const broken = { command: process.execPath, args: ["-e", "process.stderr.write(process.argv[1]); process.exit(3)", API_KEY] };
  await writeFile(config, JSON.stringify({ mcpServers: { broken } }));
});

afterEach(async () => {
  await project.remove();
});

describe("a server's status as mca shows it", () => {
  it("hides a secret of the run that the server's error and stderr quote", async () => {
    const run = await project.run(["mcp", "list", "--json"], "", { MOCK: "1", ANTHROPIC_API_KEY: API_KEY });
    expect([run.code, JSON.parse(run.stdout), run.stderr]).toEqual([
      0,
      [
        {
          alias: "broken",
          transport: "stdio",
          state: "failed",
          protocolVersion: null,
          tools: 0,
          error: "the server exited with code 3 (signal none); stderr: [redacted]",
          stderrTail: "[redacted]",
          recentLogs: [],
          scope: "user",
          file: join(project.home, ".config", "mca", "mcp.json"),
        },
      ],
      "mcp: broken (stdio) failed: the server exited with code 3 (signal none); stderr: [redacted]\n",
    ]);
  });
});
