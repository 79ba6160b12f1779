// How one conformance scenario is judged: check by check from the runner's `checks.json`. A FAILURE or a
// WARNING fails the scenario unless expected-failures.json names it; an expected failure that passed is stale.
import { isJsonObject } from "../../src/mcp/index.js";

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

export interface Check {
  readonly id: string;
  readonly name: string;
  readonly status: CheckStatus;
  readonly message: string;
}

export interface ExpectedFailure {
  readonly scenario: string;
  readonly check: string;
  /** Narrows the entry to one of several checks sharing an id. */
  readonly name?: string;
  readonly reason: string;
}

export interface Verdict {
  readonly scenario: string;
  /** Unexpected failures, in the order of checks.json; also a stale expected failure, or a broken run. */
  readonly problems: readonly string[];
  readonly expectedFailures: number;
}

const STATUSES: readonly string[] = ["SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO"];
const MAX_MESSAGE_CHARS = 300;

function isStatus(value: unknown): value is CheckStatus {
  return typeof value === "string" && STATUSES.includes(value);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS)}…` : flat;
}

/** The checks of one run, validated; the message is the runner's error text, else its description. */
export function parseChecks(value: unknown): Check[] | Error {
  if (!Array.isArray(value)) return new Error("checks.json is not a list");
  const checks: Check[] = [];
  for (const [index, item] of value.entries()) {
    if (!isJsonObject(item) || typeof item.id !== "string" || !isStatus(item.status)) {
      return new Error(`checks.json entry ${index} has no id or no known status`);
    }
    const detail = isJsonObject(item.details) ? item.details.message : undefined;
    const message = [item.errorMessage, detail, item.description].find((text) => typeof text === "string");
    checks.push({ id: item.id, name: typeof item.name === "string" ? item.name : item.id, status: item.status, message: oneLine(String(message ?? "")) });
  }
  return checks;
}

export function parseExpectedFailures(value: unknown): ExpectedFailure[] | Error {
  if (!Array.isArray(value)) return new Error("expected failures: not a list");
  const entries: ExpectedFailure[] = [];
  for (const [index, item] of value.entries()) {
    if (!isJsonObject(item)) return new Error(`expected failures: entry ${index} is not an object`);
    const { scenario, check, name, reason } = item;
    if (typeof scenario !== "string" || typeof check !== "string" || typeof reason !== "string" || reason === "") {
      return new Error(`expected failures: entry ${index} needs "scenario", "check" and a "reason"`);
    }
    if (name !== undefined && typeof name !== "string") return new Error(`expected failures: entry ${index}: "name" is not a string`);
    entries.push({ scenario, check, reason, ...(name === undefined ? {} : { name }) });
  }
  return entries;
}

function matches(entry: ExpectedFailure, check: Check): boolean {
  return entry.check === check.id && (entry.name === undefined || entry.name === check.name);
}

/**
 * The verdict on one scenario's checks. `runProblem` is what went wrong around the checks (the client
 * exited with an error, a time limit was hit); it fails the scenario when nothing else explains it.
 */
export function judge(scenario: string, checks: readonly Check[], expected: readonly ExpectedFailure[], runProblem?: string): Verdict {
  const mine = expected.filter((entry) => entry.scenario === scenario);
  const sharedIds = new Set(checks.filter((check, i) => checks.findIndex((other) => other.id === check.id) !== i).map((check) => check.id));
  const label = (check: Check): string => (sharedIds.has(check.id) ? `${check.id} (${check.name})` : check.id);
  const problems: string[] = [];
  const used = new Set<ExpectedFailure>();
  let expectedFailures = 0;
  for (const check of checks) {
    if (check.status !== "FAILURE" && check.status !== "WARNING") continue;
    const entry = mine.find((candidate) => matches(candidate, check));
    if (entry === undefined) {
      problems.push(`${label(check)}: ${check.status === "WARNING" ? "warning: " : ""}${check.message}`);
    } else {
      used.add(entry);
      expectedFailures += 1;
    }
  }
  if (checks.length === 0) return { scenario, problems: [runProblem ?? "the run produced no checks"], expectedFailures };
  for (const entry of mine) {
    if (!used.has(entry)) problems.push(`${entry.check}: expected to fail (${entry.reason}) but did not; remove it from expected-failures.json`);
  }
  if (problems.length === 0 && runProblem !== undefined) problems.push(runProblem);
  return { scenario, problems, expectedFailures };
}

/** `PASS <scenario>` or `FAIL <scenario>: <first problem>`, further problems on indented lines. */
export function verdictLines(verdict: Verdict): string[] {
  const expected = verdict.expectedFailures > 0 ? ` (${verdict.expectedFailures} expected failure${verdict.expectedFailures === 1 ? "" : "s"})` : "";
  const [first, ...rest] = verdict.problems;
  if (first === undefined) return [`PASS ${verdict.scenario}${expected}`];
  return [`FAIL ${verdict.scenario}: ${first}${expected}`, ...rest.map((problem) => `    ${problem}`)];
}
