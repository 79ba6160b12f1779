// Output into a pipe arrives whole, through the bundle users run: each subcommand's and each -p format's
// output goes into a pipe whose reader reads nothing until mca has handed all of it to stdout (it says so
// on stderr through test-support/announce-writes.mjs), then everything; mca must still be there to give it.
import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE, createTempProject, type TempProject } from "./cli/test-support/run-cli.js";

const ANNOUNCE = pathToFileURL(fileURLToPath(new URL("./cli/test-support/announce-writes.mjs", import.meta.url))).href;
const MANY_TOOLS_SERVER = fileURLToPath(new URL("./cli/test-support/many-tools-server.mjs", import.meta.url));
const MB = 1024 * 1024;
/** Each tool of `mca tools --json` takes about 1.9 kB: three servers of 1,000 (the most one server mounts) make more than 5 MB. */
const SERVERS = ["many1", "many2", "many3"];
const TOOL_COUNT = 1000;
const DESCRIPTION_CHARS = 1500;
/** The reply -p prints: 5 MB of numbered lines. */
const REPLY = Array.from({ length: 5 * MB / 32 }, (_, index) => `line ${String(index).padStart(8, "0")} of the answer...\n`).join("").slice(0, 5 * MB);

let project: TempProject;

beforeAll(async () => {
  project = await createTempProject("bundle");
  const server = { command: process.execPath, args: [MANY_TOOLS_SERVER, String(TOOL_COUNT), String(DESCRIPTION_CHARS)] };
  await writeFile(join(project.dir, "many.json"), JSON.stringify({ mcpServers: Object.fromEntries(SERVERS.map((alias) => [alias, server])) }));
  await writeFile(join(project.dir, "script.json"), JSON.stringify([REPLY]));
});

afterAll(async () => {
  await project.remove();
});

interface PipedRun {
  readonly code: number | null;
  readonly stdout: string;
  /** What mca had handed to stdout when it exited (the last count it announced). */
  readonly handedBytes: number;
}

/**
 * Runs the bundle with its stdout into a pipe that is not read until mca has announced `atLeastBytes` written
 * (or has exited, as it would if it left before its output drained), then read to the end.
 */
async function throughSlowReader(args: readonly string[], atLeastBytes: number): Promise<PipedRun> {
  const env = { PATH: process.env.PATH ?? "", HOME: project.home, XDG_CONFIG_HOME: join(project.home, ".config"), XDG_STATE_HOME: join(project.home, ".local", "state"), MCA_MOCK_SCRIPT: "script.json" };
  const child = spawn(process.execPath, ["--import", ANNOUNCE, BUNDLE, ...args], { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
  // Paused, yet listened to: a child's output nobody listens to is thrown away when the child exits.
  child.stdout.pause();
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stdin.end();
  let stderr = "";
  let handedBytes = 0;
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await Promise.race([
    exited,
    new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        for (const match of stderr.matchAll(/\[stdout written (\d+)\]/g)) handedBytes = Math.max(handedBytes, Number(match[1]));
        if (handedBytes >= atLeastBytes) resolve();
      }),
    ),
  ]);
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on("close", (status) => resolve(status)));
  return { code, stdout: Buffer.concat(chunks).toString("utf8"), handedBytes };
}

describe("mca's output into a slow pipe", () => {
  it("arrives whole from mca tools --json, with thousands of tools", async () => {
    const run = await throughSlowReader(["tools", "--json", "--mcp-config", "many.json"], 5 * MB);
    expect([run.code, Buffer.byteLength(run.stdout)]).toEqual([0, run.handedBytes]);
    const tools: unknown = JSON.parse(run.stdout);
    expect(Array.isArray(tools) && tools.length > SERVERS.length * TOOL_COUNT).toBe(true);
  });

  it("arrives whole from mca call --json, whose result the budget cuts", async () => {
    const run = await throughSlowReader(["call", "mcp__many1__big", "{}", "--json", "--allow", "mcp__many1__big", "--mcp-config", "many.json"], 1);
    expect([run.code, Buffer.byteLength(run.stdout), JSON.parse(run.stdout)]).toEqual([0, run.handedBytes, expect.objectContaining({ tool: "mcp__many1__big", truncated: true })]);
  });

  it("arrives whole from mca context --json, with thousands of tools", async () => {
    const run = await throughSlowReader(["context", "--json", "--mcp-config", "many.json"], 1);
    expect([run.code, Buffer.byteLength(run.stdout), JSON.parse(run.stdout)]).toEqual([0, run.handedBytes, expect.objectContaining({ counted: "estimate" })]);
  });

  it("arrives whole from -p as text", async () => {
    const run = await throughSlowReader(["-p", "answer at length"], REPLY.length);
    expect([run.code, run.stdout.length, run.stdout === `${REPLY.trimEnd()}\n`]).toEqual([0, run.handedBytes, true]);
  });

  it("arrives whole from -p --output-format json", async () => {
    // The result carries the reply twice: as `result` and under its earlier name `text`.
    const run = await throughSlowReader(["-p", "answer at length", "--output-format", "json"], 2 * REPLY.length);
    const result: unknown = JSON.parse(run.stdout);
    expect([run.code, Buffer.byteLength(run.stdout), result]).toEqual([0, run.handedBytes, expect.objectContaining({ subtype: "success", result: REPLY })]);
  });

  it("arrives whole from -p --output-format stream-json", async () => {
    const run = await throughSlowReader(["-p", "answer at length", "--output-format", "stream-json"], 3 * REPLY.length);
    const lines = run.stdout.trimEnd().split("\n").map((line): unknown => JSON.parse(line));
    expect([run.code, Buffer.byteLength(run.stdout), lines.map((line) => (line as { type: string }).type), lines.at(-1)]).toEqual([
      0,
      run.handedBytes,
      ["system", "assistant", "result"],
      expect.objectContaining({ result: REPLY }),
    ]);
  });

  it("arrives whole from mca sessions --json, with thousands of sessions", async () => {
    // A real session's start and prompt (not its 5 MB answer), copied under many ids: each listed in about 170 bytes.
    const asked = "a".repeat(200);
    await throughSlowReader(["-p", asked], 1);
    const transcripts = await Promise.all((await readdir(project.sessionsDir)).map(async (name) => ({ name, text: await readFile(join(project.sessionsDir, name), "utf8") })));
    const seed = transcripts.find((transcript) => transcript.text.includes(asked)) ?? { name: "", text: "" };
    const id = seed.name.replace(/\.jsonl$/, "");
    const [start = "", prompt = ""] = seed.text.split("\n");
    const copies = 32_000;
    for (let batch = 0; batch < copies; batch += 1000) {
      await Promise.all(
        Array.from({ length: 1000 }, (_, index) => {
          const copy = `20260101-000000-${batch + index}`;
          return writeFile(join(project.sessionsDir, `${copy}.jsonl`), `${start.replaceAll(id, copy)}\n${prompt}\n`);
        }),
      );
    }
    const run = await throughSlowReader(["sessions", "--json"], 5 * MB);
    expect([run.code, Buffer.byteLength(run.stdout)]).toEqual([0, run.handedBytes]);
    const sessions: unknown = JSON.parse(run.stdout);
    expect(Array.isArray(sessions) && sessions.length > copies).toBe(true);
  }, 60_000);
});
