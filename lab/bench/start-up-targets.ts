// The processes the start-up cases time: the built CLI (dist/src/main.cjs, one bundled file) with an empty MCP config in an
// empty project folder, and plain `node` beside it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openTranscript, projectState } from "../../src/session/index.js";
import type { Message } from "../../src/kernel/index.js";
import type { StartUpTarget } from "./cases.js";
import type { StartUpRun } from "./measure/start-up.js";

/** What a resumed chat prints under the conversation it shows (src/cli/resumed-view.ts). */
const RESUMED_READY_TEXT = "resumed: the conversation goes on from here";
/** The resumed session's size: prompts, answers in Markdown, tool calls and their results. */
const RESUMED_MESSAGES = 2000;

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
    "mca chat resuming 2,000 messages": {
      command: { command: node, args: [main, "--mcp-config", config, "--resume"] },
      cwd: dir,
      env: { ...env, ...writeLongSession(dir) },
      readyText: RESUMED_READY_TEXT,
    },
  };
  return { run: runs[target], remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A chat session of RESUMED_MESSAGES messages in a state folder of the bench's own (its HOME and
 * XDG_STATE_HOME returned for the run): in turn a prompt, an answer with Markdown and a call, the call's
 * result, and the closing answer.
 */
function writeLongSession(dir: string): Record<string, string> {
  const env = { HOME: join(dir, "home"), XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") };
  const transcript = openTranscript(projectState(dir, env, env.HOME), "20261201-000000-1", { mode: "chat", startedAt: "2026-12-01T00:00:00.000Z", snapshots: "20261201-000000-1" });
  for (let turn = 0; turn < RESUMED_MESSAGES / 4; turn += 1) {
    const id = `t${turn}`;
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: `step ${turn}: look at src/module-${turn}.ts and fix what is off` }] },
      { role: "assistant", content: [{ type: "text", text: `Reading **module ${turn}** first.` }, { type: "tool_use", id, name: "read_file", input: { path: `src/module-${turn}.ts` } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: id, text: `1\texport const value${turn} = ${turn};\n2\t// more`, isError: false }] },
      { role: "assistant", content: [{ type: "text", text: `## Step ${turn}\n\n- fixed \`value${turn}\`\n- checked the tests\n\n\`\`\`ts\nexport const value${turn} = ${turn};\n\`\`\`` }] },
    ];
    for (const message of messages) transcript.append({ type: "message", message });
  }
  return env;
}
