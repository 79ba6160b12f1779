// A case taken in rounds: the order in which the runner starts the rounds (the cases of one scenario in
// turn, round after round), and how the reports of one case's rounds are pooled into one.
import type { BenchCase } from "./cases.js";
import type { CaseReport } from "./report.js";

export interface ScheduledRun {
  readonly benchCase: BenchCase;
  /** 1-based. */
  readonly round: number;
}

/** Scenarios in the order their first case comes; within one, round 1 of every case, then round 2… */
export function scheduleRounds(cases: readonly BenchCase[]): ScheduledRun[] {
  const scenarios = new Map<string, BenchCase[]>();
  for (const benchCase of cases) scenarios.set(benchCase.scenario, [...(scenarios.get(benchCase.scenario) ?? []), benchCase]);
  const runs: ScheduledRun[] = [];
  for (const members of scenarios.values()) {
    const rounds = Math.max(...members.map((member) => member.rounds));
    for (let round = 1; round <= rounds; round += 1) {
      for (const benchCase of members) if (round <= benchCase.rounds) runs.push({ benchCase, round });
    }
  }
  return runs;
}

/** All samples together, the highest peak RSS, the mean CPU per call; a failed round fails the case. */
export function poolRounds(previous: CaseReport | undefined, next: CaseReport): CaseReport {
  if (previous === undefined || !previous.ok) return previous ?? next;
  if (!next.ok) return next;
  const rss = [previous.peakRssMb, next.peakRssMb].filter((value): value is number => value !== undefined);
  const cpu = [previous.cpuUsPerCall, next.cpuUsPerCall].filter((value): value is number => value !== undefined);
  const rounds = (previous.rounds ?? 1) + 1;
  return {
    ok: true,
    samples: [...previous.samples, ...next.samples],
    peakRssMb: rss.length === 0 ? undefined : Math.max(...rss),
    // A running mean: the previous value already averages `rounds - 1` rounds.
    cpuUsPerCall: cpu.length === 2 ? ((cpu[0] ?? 0) * (rounds - 1) + (cpu[1] ?? 0)) / rounds : cpu[0],
    outcome: next.outcome,
    rounds,
  };
}
