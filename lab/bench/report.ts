// Turns a run's case outputs into the two Markdown tables `pnpm bench` prints: every figure with its
// median, slow end and peak RSS next to mca's ratio, then every target with its verdict.
import type { BenchCase, Unit } from "./cases.js";
import { summarise, type Summary } from "./stats.js";
import type { Target } from "./targets.js";

export type CaseReport =
  | {
      readonly ok: true;
      readonly samples: readonly number[];
      readonly peakRssMb: number | undefined;
      readonly cpuUsPerCall?: number;
      readonly outcome?: string;
      /** How many rounds were pooled into this report; absent for one. */
      readonly rounds?: number;
    }
  | { readonly ok: false; readonly error: string };

const higherIsBetter = (unit: Unit): boolean => unit === "calls/s";

function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return "—";
  switch (unit) {
    case "µs":
      return `${value.toFixed(0)} µs`;
    case "ms":
      return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ms`;
    case "calls/s":
      return `${Math.round(value).toLocaleString("en")}/s`;
    case "tokens":
      return `${Math.round(value).toLocaleString("en")} tokens`;
    case "outcome":
      return "";
    default: {
      const unknown: never = unit;
      return String(unknown);
    }
  }
}

function formatCpu(micros: number | undefined): string {
  if (micros === undefined) return "—";
  return micros < 10_000 ? `${micros.toFixed(0)} µs` : `${(micros / 1000).toFixed(0)} ms`;
}

function summaryOf(benchCase: BenchCase, report: CaseReport | undefined): Summary | undefined {
  if (report === undefined || !report.ok || report.samples.length === 0) return undefined;
  return summarise(report.samples, higherIsBetter(benchCase.unit));
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

export function figuresTable(cases: readonly BenchCase[], reports: ReadonlyMap<string, CaseReport>): string {
  const lines = [row(["scenario", "client", "median", "p95 (slow end)", "n", "peak RSS", "CPU / call", "mca ÷ this"]), row(Array(8).fill("---"))];
  let scenario = "";
  let subject: Summary | undefined;
  for (const benchCase of cases) {
    const report = reports.get(benchCase.id);
    const summary = summaryOf(benchCase, report);
    const first = benchCase.scenario !== scenario;
    if (first) {
      scenario = benchCase.scenario;
      subject = summary;
    }
    const title = first ? `**${scenario}**` : "";
    if (report === undefined || !report.ok) {
      lines.push(row([title, benchCase.label, report === undefined ? "not run" : `FAILED: ${report.error}`, "", "", "", "", ""]));
      continue;
    }
    if (benchCase.unit === "outcome") {
      lines.push(row([title, benchCase.label, report.outcome ?? "", "", "", "", "", ""]));
      continue;
    }
    const ratio = !first && subject && summary ? `${(subject.median / summary.median).toFixed(2)}×` : "";
    const rss = report.peakRssMb === undefined ? "—" : `${report.peakRssMb.toFixed(0)} MiB`;
    const median = summary ? formatValue(summary.median, benchCase.unit) : "—";
    const p95 = summary && summary.count > 1 ? formatValue(summary.p95, benchCase.unit) : "—";
    lines.push(row([title, benchCase.label, median, p95, String(summary?.count ?? 0), rss, formatCpu(report.cpuUsPerCall), ratio]));
  }
  return lines.join("\n");
}

function measuredRatio(target: Extract<Target, { kind: "ratio" }>, figures: ReadonlyMap<string, { median: number; peakRss: number | undefined }>): number {
  const subject = figures.get(target.subject);
  const anchor = figures.get(target.anchor);
  if (!subject || !anchor) return Number.NaN;
  if (target.metric === "median") return subject.median / anchor.median;
  return subject.peakRss !== undefined && anchor.peakRss !== undefined ? subject.peakRss / anchor.peakRss : Number.NaN;
}

export function targetsTable(cases: readonly BenchCase[], reports: ReadonlyMap<string, CaseReport>, targets: readonly Target[]): string {
  const figures = new Map<string, { median: number; peakRss: number | undefined }>();
  for (const benchCase of cases) {
    const report = reports.get(benchCase.id);
    const summary = summaryOf(benchCase, report);
    if (summary && report?.ok) figures.set(benchCase.id, { median: summary.median, peakRss: report.peakRssMb });
  }
  const lines = [row(["target", "measured", "verdict"]), row(["---", "---", "---"])];
  for (const target of targets) {
    if (target.kind === "outcome") {
      const report = reports.get(target.caseId);
      const outcome = report?.ok ? (report.outcome ?? "") : "not measured";
      lines.push(row([target.text, outcome, target.expected.test(outcome) ? "met" : "**MISSED**"]));
      continue;
    }
    if (target.kind === "at-most") {
      const benchCase = cases.find((one) => one.id === target.caseId);
      const figure = figures.get(target.caseId);
      const measured = target.metric === "median" ? figure?.median : figure?.peakRss;
      const shown = measured === undefined || benchCase === undefined ? "—" : target.metric === "median" ? formatValue(measured, benchCase.unit) : `${measured.toFixed(0)} MiB`;
      const verdict = measured === undefined || Number.isNaN(measured) ? "**not measured**" : measured <= target.atMost ? "met" : "**MISSED**";
      lines.push(row([target.text, shown, verdict]));
      continue;
    }
    if (target.kind === "difference") {
      const added = (figures.get(target.subject)?.median ?? Number.NaN) - (figures.get(target.anchor)?.median ?? Number.NaN);
      const verdict = Number.isNaN(added) ? "**not measured**" : added <= target.atMost ? "met" : "**MISSED**";
      lines.push(row([target.text, Number.isNaN(added) ? "—" : `${added.toFixed(1)} ms`, verdict]));
      continue;
    }
    const measured = measuredRatio(target, figures);
    const met = target.op === "≤" ? measured <= target.factor : measured >= target.factor;
    const verdict = Number.isNaN(measured) ? "**not measured**" : met ? "met" : "**MISSED**";
    lines.push(row([target.text, Number.isNaN(measured) ? "—" : `${measured.toFixed(2)}×`, verdict]));
  }
  return lines.join("\n");
}
