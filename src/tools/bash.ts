// bash: runs a shell command in the project folder with a time limit; the command's whole process
// group is killed on timeout or abort, and its output is bounded while it is read.
import { resolve } from "node:path";
import type { Tool, ToolResult } from "../kernel/index.js";
import { type CommandOutcome, runCommand } from "./run-command.js";
import { optionalInteger, requiredString } from "./tool-args.js";
import { errorResult, okResult } from "./tool-result.js";

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
const BASH_KILL_GRACE_MS = 2_000;

export interface BashToolOptions {
  /** Between SIGTERM and SIGKILL to the process group; tests shorten it. */
  readonly killGraceMs?: number;
}

export function createBashTool(projectDir: string, options: BashToolOptions = {}): Tool {
  const cwd = resolve(projectDir);
  return {
    name: "bash",
    description:
      "Run a command with `bash -c` in the project folder (stdin is empty). Returns `exit code N` and then " +
      "stdout and stderr interleaved; a nonzero exit is reported as an error. Time limit `timeout_ms`: " +
      "default 120,000, at most 600,000; on timeout the command and everything it started are killed. " +
      "Output over 7,000 bytes keeps its first 3,000 and last 4,000 bytes. Background processes that " +
      "still hold the output when the command ends are killed; redirect their output " +
      "(`cmd > log 2>&1 &`) to keep them running.",
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string", description: "The shell command, e.g. `git status --short`." },
        timeout_ms: {
          type: "integer",
          minimum: 1,
          maximum: BASH_MAX_TIMEOUT_MS,
          description: "Time limit in milliseconds (default 120000).",
        },
      },
      required: ["command"],
      additionalProperties: false,
    },
    kind: "exec",
    source: "local",
    originalName: "bash",
    async run(args, context) {
      const command = requiredString(args, "command");
      if (command instanceof Error) return errorResult(command.message);
      const timeoutMs = optionalInteger(args, "timeout_ms", { min: 1, max: BASH_MAX_TIMEOUT_MS });
      if (timeoutMs instanceof Error) return errorResult(timeoutMs.message);
      const limitMs = timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS;
      const outcome = await runCommand({
        command,
        cwd,
        timeoutMs: limitMs,
        killGraceMs: options.killGraceMs ?? BASH_KILL_GRACE_MS,
        signal: context.signal,
      });
      return describe(outcome, limitMs);
    },
  };
}

function describe(outcome: CommandOutcome, limitMs: number): ToolResult {
  switch (outcome.kind) {
    case "exited": {
      const body = outcome.output === "" ? "(no output)" : outcome.output;
      if (outcome.exitCode === 0) return okResult(`exit code 0\n${body}`);
      if (outcome.exitCode !== null) return errorResult(`exit code ${outcome.exitCode}\n${body}`);
      return errorResult(`killed by signal ${outcome.signal ?? "unknown"}\n${body}`);
    }
    case "timed_out":
      return errorResult(`timed out after ${limitMs} ms; the command's process group was killed\n${outcome.output}`);
    case "aborted":
      return errorResult(`aborted; the command's process group was killed\n${outcome.output}`);
    case "spawn_failed":
      return errorResult(`could not start bash: ${outcome.message}`);
    default: {
      const unexpected: never = outcome;
      return unexpected;
    }
  }
}
