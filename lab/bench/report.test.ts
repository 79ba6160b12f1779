import { describe, expect, it } from "vitest";
import type { BenchCase } from "./cases.js";
import { targetsTable, type CaseReport } from "./report.js";
import type { Target } from "./targets.js";

function scaleCase(id: string, unit: BenchCase["unit"]): BenchCase {
  return { id, scenario: id, label: "mca", unit, run: { kind: "scale", figure: "mount", servers: 1, toolsPerServer: 1, samples: 1 }, rounds: 1, timeoutMs: 1 };
}

const CASES = [scaleCase("tokens", "tokens"), scaleCase("mount", "ms")];
const REPORTS = new Map<string, CaseReport>([
  ["tokens", { ok: true, samples: [12_345], peakRssMb: 90 }],
  ["mount", { ok: true, samples: [1200, 1500, 4000], peakRssMb: 160 }],
]);

function bound(text: string, caseId: string, metric: "median" | "peakRss", atMost: number): Target {
  return { kind: "at-most", text, caseId, metric, atMost };
}

describe("targetsTable, a bound on one case's figure", () => {
  it("judges the median in the case's unit and the peak RSS in MiB", () => {
    const targets = [bound("tokens ≤ 20,000", "tokens", "median", 20_000), bound("mount ≤ 1 s", "mount", "median", 1000), bound("rss ≤ 143 MiB", "mount", "peakRss", 143)];
    expect(targetsTable(CASES, REPORTS, targets).split("\n").slice(2)).toEqual([
      "| tokens ≤ 20,000 | 12,345 tokens | met |",
      "| mount ≤ 1 s | 1500 ms | **MISSED** |",
      "| rss ≤ 143 MiB | 160 MiB | **MISSED** |",
    ]);
  });

  it("says a failed case was not measured", () => {
    const failed = new Map<string, CaseReport>([["mount", { ok: false, error: "exit 1" }]]);
    expect(targetsTable(CASES, failed, [bound("mount ≤ 3 s", "mount", "median", 3000)]).split("\n").slice(2)).toEqual(["| mount ≤ 3 s | — | **not measured** |"]);
  });
});
