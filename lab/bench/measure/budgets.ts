// Time budgets the unit tests used to assert, timed here instead (a test on a busy machine cannot tell slow
// code from a slow minute): the gate on five 100 kB commands of hostile shapes, and the file tools on a sparse
// 2 GB file, whose first window they must give without reading the rest. The tests keep what they can count:
// the verdicts, and the bytes read.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { decide, parseRule, sessionAllowFor, type GateSubject, type GateTool, type Rule, type ToolResult } from "../../../src/kernel/index.js";
import { createLocalTools } from "../../../src/tools/index.js";
import type { BudgetFigure } from "../cases.js";

const WARMUPS = 2;
const HUGE_FILE_BYTES = 2 * 1024 ** 3;

export async function budgetMs(figure: BudgetFigure, samples: number): Promise<number[]> {
  const work = await prepare(figure);
  try {
    const times: number[] = [];
    for (let index = 0; index < WARMUPS + samples; index += 1) {
      const started = performance.now();
      await work.run();
      const elapsed = performance.now() - started;
      if (index >= WARMUPS) times.push(elapsed);
    }
    return times;
  } finally {
    work.remove();
  }
}

interface Work {
  run(): Promise<void> | void;
  remove(): void;
}

async function prepare(figure: BudgetFigure): Promise<Work> {
  switch (figure) {
    case "gate":
      return gateWork();
    case "read_file":
      return fileToolWork("read_file", { path: "huge.log", offset: 10, limit: 2 }, /^10\tentry 10\n11\tentry 11\n/u);
    case "search":
      return fileToolWork("search", { pattern: "entry", path: "huge.log" }, /\[stopped at 200 matches/u);
    default: {
      const unknown: never = figure;
      throw new Error(`unknown budget ${String(unknown)}`);
    }
  }
}

/** The shapes of src/kernel/gate.test.ts's linear-time case: wrappers, options and words, 100 kB each. */
function gateWork(): Work {
  const bash: GateTool = { name: "bash", kind: "exec", source: "local", originalName: "bash" };
  const shapes = [`${"timeout 1 ".repeat(10_000)}cat x`, `${"nice -n 5 ".repeat(10_000)}cat x`, `${"env A=1 ".repeat(12_000)}cat x`, `git log${" -n 5".repeat(20_000)}`, `cat ${"a ".repeat(50_000)}x`];
  const rules = [rule("allow", "bash(*)"), rule("deny", "bash(rm *)")];
  const subjects: GateSubject[] = shapes.map((text) => ({ kind: "command", text, sandbox: "unavailable" }));
  return {
    run: () => {
      for (const subject of subjects) {
        decide(bash, subject, rules, new Map());
        sessionAllowFor(bash, subject);
      }
    },
    remove: () => undefined,
  };
}

function rule(verdict: "allow" | "deny", pattern: string): Rule {
  const parsed = parseRule(pattern, verdict, "bench");
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

/** A local tool on a sparse 2 GB file: 5,000 lines of text, then NULs that cost no disk. */
async function fileToolWork(name: string, args: Record<string, unknown>, expected: RegExp): Promise<Work> {
  const project = mkdtempSync(join(tmpdir(), "mca-bench-budget-"));
  writeFileSync(join(project, "huge.log"), Array.from({ length: 5_000 }, (_, i) => `entry ${i + 1}`).join("\n"));
  truncateSync(join(project, "huge.log"), HUGE_FILE_BYTES);
  const tool = createLocalTools(project).find((candidate) => candidate.name === name);
  if (tool?.parse === undefined) throw new Error(`no local tool ${name}`);
  const parsed = tool.parse(args);
  if (parsed instanceof Error) throw parsed;
  const context = { signal: new AbortController().signal };
  return {
    run: async () => {
      const result: ToolResult = await tool.run(parsed, context);
      if (result.isError || !expected.test(result.text)) throw new Error(`${name} answered ${JSON.stringify(result.text.slice(0, 200))}`);
    },
    remove: () => rmSync(project, { recursive: true, force: true }),
  };
}
