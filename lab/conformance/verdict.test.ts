import { describe, expect, it } from "vitest";
import { judge, parseChecks, parseExpectedFailures, verdictLines, type Check, type ExpectedFailure } from "./verdict.js";

const check = (id: string, status: Check["status"], message = "m", name = id): Check => ({ id, name, status, message });
const fixtureTool: ExpectedFailure = { scenario: "server-stateless", check: "needs-fixture", reason: "needs the suite's test_logging_tool" };

describe("parseChecks", () => {
  it("takes the runner's error text, else the detail message, else the description", () => {
    const parsed = parseChecks([
      { id: "a", name: "A", status: "FAILURE", description: "d", errorMessage: "Failed:\n  fetch failed" },
      { id: "b", name: "B", status: "FAILURE", description: "d", details: { message: "Tool was not called" } },
      { id: "c", status: "SUCCESS", description: "does c" },
    ]);
    expect(parsed).toEqual([check("a", "FAILURE", "Failed: fetch failed", "A"), check("b", "FAILURE", "Tool was not called", "B"), check("c", "SUCCESS", "does c")]);
  });

  it("rejects an entry without a known status", () => {
    expect(parseChecks([{ id: "a", status: "MAYBE" }])).toEqual(new Error("checks.json entry 0 has no id or no known status"));
  });
});

describe("parseExpectedFailures", () => {
  it("requires a reason for every entry", () => {
    expect(parseExpectedFailures([{ scenario: "s", check: "c" }])).toEqual(new Error('expected failures: entry 0 needs "scenario", "check" and a "reason"'));
  });
});

describe("judge", () => {
  it("passes a scenario whose checks all succeed, are skipped or are informational", () => {
    const verdict = judge("tools-list", [check("a", "SUCCESS"), check("b", "SKIPPED"), check("c", "INFO")], []);
    expect(verdictLines(verdict)).toEqual(["PASS tools-list"]);
  });

  it("fails on a warning as on a failure, naming each check", () => {
    const verdict = judge("sep-2164-resource-not-found", [check("code", "WARNING", "got -32601"), check("uri", "FAILURE", "no uri")], []);
    expect(verdictLines(verdict)).toEqual(["FAIL sep-2164-resource-not-found: code: warning: got -32601", "    uri: no uri"]);
  });

  it("counts an expected failure apart and passes the scenario", () => {
    const verdict = judge("server-stateless", [check("ok", "SUCCESS"), check("needs-fixture", "FAILURE")], [fixtureTool]);
    expect(verdict).toEqual({ scenario: "server-stateless", problems: [], expectedFailures: 1 });
    expect(verdictLines(verdict)).toEqual(["PASS server-stateless (1 expected failure)"]);
  });

  it("reports an expected failure that passed as stale", () => {
    const verdict = judge("server-stateless", [check("needs-fixture", "SUCCESS")], [fixtureTool]);
    expect(verdict.problems).toEqual(["needs-fixture: expected to fail (needs the suite's test_logging_tool) but did not; remove it from expected-failures.json"]);
  });

  it("tells checks that share an id apart by name, and an entry with a name matches only that one", () => {
    const checks = [check("hdr", "FAILURE", "x", "MissingMethod"), check("hdr", "FAILURE", "y", "MissingName")];
    const verdict = judge("http-header-validation", checks, [{ scenario: "http-header-validation", check: "hdr", name: "MissingMethod", reason: "r" }]);
    expect(verdict).toEqual({ scenario: "http-header-validation", problems: ["hdr (MissingName): y"], expectedFailures: 1 });
  });

  it("fails a run whose checks all pass when the client exited with an error", () => {
    const verdict = judge("tools_call", [check("a", "SUCCESS")], [], "the client exited with code 1");
    expect(verdictLines(verdict)).toEqual(["FAIL tools_call: the client exited with code 1"]);
  });

  it("fails a run that produced no checks with what went wrong, and nothing else", () => {
    expect(judge("caching", [], []).problems).toEqual(["the run produced no checks"]);
    expect(judge("server-stateless", [], [fixtureTool], "interrupted").problems).toEqual(["interrupted"]);
  });
});
