// The processes the start-up cases time: the built CLI (dist/src/main.cjs, one bundled file) with an empty MCP config in an
// empty project folder, and plain `node` beside it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StartUpTarget } from "./cases.js";
import type { StartUpRun } from "./measure/start-up.js";

/** What the chat prints once it waits for the first prompt (src/cli/chat.ts). */
const CHAT_READY_TEXT = "/help lists the commands";
const NODE_READY_TEXT = "ready";

export interface StartUpProject {
  readonly run: StartUpRun;
  remove(): void;
}

export function startUpProject(target: StartUpTarget, repoDir: string): StartUpProject {
  const dir = mkdtempSync(join(tmpdir(), "mca-bench-"));
  const config = join(dir, "empty.mcp.json");
  writeFileSync(config, '{"mcpServers":{}}\n');
  const main = join(repoDir, "dist", "src", "main.cjs");
  const env = { ...process.env, MOCK: "1" };
  const node = process.execPath;
  const runs: Readonly<Record<StartUpTarget, StartUpRun>> = {
    "node -e 0": { command: { command: node, args: ["-e", "0"] }, cwd: dir, env },
    "mca tools --json": { command: { command: node, args: [main, "tools", "--json", "--mcp-config", config] }, cwd: dir, env },
    "mca pipe mode": { command: { command: node, args: [main, "--mcp-config", config] }, cwd: dir, env },
    "node on a pty": {
      command: { command: node, args: ["-e", `process.stdout.write("${NODE_READY_TEXT}\\n")`] },
      cwd: dir,
      env,
      readyText: NODE_READY_TEXT,
    },
    "mca chat on a pty": { command: { command: node, args: [main, "--mcp-config", config] }, cwd: dir, env, readyText: CHAT_READY_TEXT },
  };
  return { run: runs[target], remove: () => rmSync(dir, { recursive: true, force: true }) };
}
