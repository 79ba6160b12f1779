// `MOCK=1 SELFTEST=1 pnpm start`: the 14 assertions, in order, against the real demo servers through the
// real client and kernel; one line each, then `N passed, N failed`. Exit status 0 only when all pass.
import { AGENT_ASSERTIONS } from "./agent-assertions.js";
import type { Assertion } from "./check.js";
import { openFixture, type FixtureOptions } from "./fixture.js";
import { PROTOCOL_ASSERTIONS } from "./protocol-assertions.js";

const ALL: Readonly<Record<string, Assertion>> = { ...PROTOCOL_ASSERTIONS, ...AGENT_ASSERTIONS };

/** The order they are printed in; each makes its own calls, so any order (or any one alone) gives the same verdicts. */
export const ASSERTION_ORDER = [
  "framing",
  "long-note",
  "pagination",
  "truncation",
  "namespace",
  "original-name",
  "sse-correlation",
  "header-mismatch",
  "version",
  "read-only-untrusted",
  "duplicate-alias",
  "long-name",
  "isolation",
  "dead-server-call",
] as const;

export type AssertionName = (typeof ASSERTION_ORDER)[number];

export interface SelfTestOptions extends FixtureOptions {
  /** Which assertions to run, in this order; all of ASSERTION_ORDER by default. */
  readonly names?: readonly AssertionName[];
}

export interface AssertionResult {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

export async function runSelfTest(options: SelfTestOptions): Promise<AssertionResult[]> {
  const fixture = await openFixture(options);
  const results: AssertionResult[] = [];
  try {
    for (const name of options.names ?? ASSERTION_ORDER) {
      const assertion = ALL[name];
      if (assertion === undefined) throw new Error(`no assertion named ${name}`);
      try {
        results.push({ name, passed: true, detail: await assertion.run(fixture) });
      } catch (error) {
        results.push({ name, passed: false, detail: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    await fixture.close();
  }
  return results;
}

export function formatResults(results: readonly AssertionResult[]): string[] {
  const lines = results.map((result, index) => {
    const number = String(index + 1).padStart(2);
    return `${result.passed ? "PASS" : "FAIL"} ${number} ${result.name.padEnd(19)} ${result.detail.split("\n")[0] ?? ""}`;
  });
  const passed = results.filter((result) => result.passed).length;
  return [...lines, `${passed} passed, ${results.length - passed} failed`];
}

function isPortInUse(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "EADDRINUSE";
}

export interface SelfTestCommandDeps extends FixtureOptions {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export async function runSelfTestCommand(deps: SelfTestCommandDeps): Promise<number> {
  let results: AssertionResult[];
  try {
    results = await runSelfTest(deps);
  } catch (error) {
    if (isPortInUse(error)) {
      deps.err(`selftest: port ${deps.ticketsPort} is already in use; stop what holds it or set TICKETS_PORT to a free port\n`);
    } else {
      deps.err(`selftest: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
  for (const line of formatResults(results)) deps.out(`${line}\n`);
  return results.every((result) => result.passed) ? 0 : 1;
}
