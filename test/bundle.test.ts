// The bundle users run (dist/src/main.cjs, built by scripts/bundle.mjs) on each path that loads something the
// rest of the suite only loads from the TypeScript sources: the built-ins it defers until first use (a child
// process, HTTP, readline), the packages it leaves outside the file (the Anthropic SDK), and package.json.
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTicketsServer, type TicketsServer } from "../servers/tickets.js";
import { createTempProject, type TempProject } from "../src/cli/test-support/run-cli.js";
import { startFakeMessagesApi } from "../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../src/model/test-support/sse-replies.js";

const ROOT = join(import.meta.dirname, "..");
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

let project: TempProject;
let tickets: TicketsServer;

beforeAll(async () => {
  // Built here, so that the test reads the sources as they are now rather than the last `pnpm build`.
  await promisify(execFile)(process.execPath, ["scripts/bundle.mjs"], { cwd: ROOT });
  project = await createTempProject("bundle");
  tickets = await startTicketsServer({ host: "127.0.0.1", port: 0 });
}, 60_000);

afterAll(async () => {
  await tickets.close();
  await project.remove();
});

describe("the bundled mca", () => {
  it("prints the version from package.json", async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(await project.run(["--version"], "")).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("runs a shell command through bash", async () => {
    const run = await project.run(["call", "bash", '{"command":"echo from-bash"}', "--allow", "bash"], "");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("from-bash");
  });

  it("reads its prompts from a pipe and reads a file", async () => {
    const run = await project.run([], '/call read_file {"path":"README.md"}\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hello from the readme");
  });

  it("mounts a stdio server and an HTTP server", async () => {
    const config = join(project.dir, "servers.json");
    const notes = { command: process.execPath, args: ["--import", TSX_LOADER, join(ROOT, "servers", "notes.ts")] };
    await writeFile(config, JSON.stringify({ mcpServers: { notes, tickets: { type: "http", url: tickets.url } } }));
    const run = await project.run(["tools", "--json", "--mcp-config", config], "");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__notes__search", "mcp__tickets__search"]));
  });

  it("loads the Anthropic SDK and talks to the Messages API", async () => {
    const api = await startFakeMessagesApi([
      { kind: "stream", events: replyEvents("claude-sonnet-5-5", [{ type: "text", chunks: ["Hello ", "from the fake."] }], "end_turn") },
    ]);
    try {
      const run = await project.run(["-p", "hi"], "", { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: api.baseURL });
      expect(run).toMatchObject({ code: 0, stdout: "Hello from the fake.\n" });
      expect(run.stderr).toMatch(/^mca: session \S+ \(mca --resume \S+ continues it\)\n/);
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});
