// How long the approval gate takes to decide a write against hostile rules a repository's settings could
// ship, on a 100 kB and a 1 MB path: the median of a few runs each. Run: `npx tsx lab/rule-glob-bench.ts`.
import { performance } from "node:perf_hooks";
import { decide, parseRule, type GateSubject, type GateTool, type Rule } from "../src/kernel/index.js";
import { median } from "./bench/stats.js";

const RUNS = 21;
const SUBJECT_CHARS = [100_000, 1_000_000];

const HOSTILE_GLOBS = [
  "*(************************Z)",
  "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
  `*${"?".repeat(64)}b*`,
  `*${"a?".repeat(40)}b*`,
  `*${"a".repeat(200)}b*`,
];

const writeFile: GateTool = { name: "write_file", kind: "write", source: "local", originalName: "write_file" };

function rule(text: string): Rule {
  const parsed = parseRule(text, "deny", "lab");
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

function medianMs(run: () => void): number {
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

for (const chars of SUBJECT_CHARS) {
  const subject: GateSubject = { kind: "path", text: `(${"a".repeat(chars - 2)})`, outside: false };
  for (const glob of HOSTILE_GLOBS) {
    const rules = [rule(`write_file(${glob})`)];
    const ms = medianMs(() => decide(writeFile, subject, rules, new Map()));
    console.log(`${String(chars).padStart(9)} chars  ${ms.toFixed(3).padStart(8)} ms  ${glob.length > 40 ? `${glob.slice(0, 37)}...` : glob}`);
  }
}
