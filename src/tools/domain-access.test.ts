import { describe, expect, it } from "vitest";
import type { ApprovalRequest, Tool } from "../kernel/index.js";
import { createDomainAccess, type DomainApprover } from "./domain-access.js";

const bash: Tool = { name: "bash", description: "", inputSchema: {}, kind: "exec", source: "local", originalName: "bash", run: async () => ({ text: "", isError: false }) };

/** An approver whose answers the test gives when it likes, recording each question. */
function heldApprover(): { readonly asked: ApprovalRequest[]; readonly answer: (reply: Awaited<ReturnType<DomainApprover>>) => void; readonly approve: DomainApprover } {
  const asked: ApprovalRequest[] = [];
  const waiting: Array<(reply: Awaited<ReturnType<DomainApprover>>) => void> = [];
  return {
    asked,
    answer: (reply) => waiting.shift()?.(reply),
    approve: (request) =>
      new Promise((settle) => {
        asked.push(request);
        waiting.push(settle);
      }),
  };
}

describe("createDomainAccess", () => {
  it("puts one question for a domain however many connections wait on it, naming the command, the domain and its port", async () => {
    const approver = heldApprover();
    const judge = createDomainAccess({ rules: () => [], approve: approver.approve }).forCommand(bash, "npm install");
    const both = Promise.all([judge("registry.npmjs.org", 443), judge("registry.npmjs.org", 443)]);
    approver.answer("once");
    expect(await both).toEqual([{ kind: "allowed" }, { kind: "allowed" }]);
    expect(approver.asked).toEqual([
      {
        tool: bash,
        args: { command: "npm install" },
        decision: { verdict: "ask", reason: "the command connects to registry.npmjs.org (port 443) through the sandbox's proxy; no rule allows registry.npmjs.org" },
        sessionAllow: { kind: "domain", domain: "registry.npmjs.org" },
      },
    ]);
  });

  it("keeps a refusal for the rest of the command, so a client's retries are refused without a question", async () => {
    const approver = heldApprover();
    const judge = createDomainAccess({ rules: () => [], approve: approver.approve }).forCommand(bash, "npm view x");
    const first = judge("registry.npmjs.org", 443);
    approver.answer({ kind: "denied", because: "use the mirror" });
    expect([await first, await judge("registry.npmjs.org", 443)]).toEqual([
      { kind: "refused", why: 'denied by the user, who said: "use the mirror"' },
      { kind: "refused", why: 'denied by the user, who said: "use the mirror"' },
    ]);
    expect(approver.asked.length).toBe(1);
  });

  it("remembers 'allow for this session' across commands and lists it as a rule would name it", async () => {
    const approver = heldApprover();
    const access = createDomainAccess({ rules: () => [], approve: approver.approve });
    const first = access.forCommand(bash, "a")("pypi.org", 443);
    approver.answer("session");
    expect([await first, await access.forCommand(bash, "b")("pypi.org", 443), access.sessionAllows()]).toEqual([{ kind: "allowed" }, { kind: "allowed" }, ["network(pypi.org)"]]);
    expect(approver.asked.length).toBe(1);
  });

  it("on 'always', allows the domain for the session and hands its rule to be kept before the connection goes on", async () => {
    const approver = heldApprover();
    const kept: string[] = [];
    let keeping: (() => void) | undefined;
    const keepRule = (rule: string): Promise<void> =>
      new Promise((done) => {
        kept.push(rule);
        keeping = done;
      });
    const access = createDomainAccess({ rules: () => [], approve: approver.approve, keepRule });
    let verdict: unknown;
    const first = access.forCommand(bash, "npm install")("registry.npmjs.org", 443).then((given) => (verdict = given));
    approver.answer("always");
    // Every step the answer sets off has run by the next turn of the event loop; the rule is not kept yet.
    await new Promise((tick) => setImmediate(tick));
    expect({ kept, verdict }).toEqual({ kept: ["network(registry.npmjs.org)"], verdict: undefined });
    keeping?.();
    await first;
    expect([verdict, await access.forCommand(bash, "npm view x")("registry.npmjs.org", 443), access.sessionAllows()]).toEqual([
      { kind: "allowed" },
      { kind: "allowed" },
      ["network(registry.npmjs.org)"],
    ]);
    expect({ asked: approver.asked.length, kept }).toEqual({ asked: 1, kept: ["network(registry.npmjs.org)"] });
  });

  it("on 'always', still allows the domain for the session when keeping its rule fails", async () => {
    const approver = heldApprover();
    const access = createDomainAccess({ rules: () => [], approve: approver.approve, keepRule: () => Promise.reject(new Error("disk full")) });
    const first = access.forCommand(bash, "a")("pypi.org", 443);
    approver.answer("always");
    expect([await first, access.sessionAllows()]).toEqual([{ kind: "allowed" }, ["network(pypi.org)"]]);
  });

  it("refuses when nobody can be asked, saying why, or when the question fails", async () => {
    const none = createDomainAccess({ rules: () => [], approve: async () => ({ kind: "nobody_to_ask", reason: "no mode is running to ask in" }) }).forCommand(bash, "a");
    const failing = createDomainAccess({ rules: () => [], approve: () => Promise.reject(new Error("input closed")) }).forCommand(bash, "a");
    expect([await none("x.test", 80), await failing("x.test", 80)]).toEqual([
      { kind: "refused", why: "no mode is running to ask in" },
      { kind: "refused", why: "the question about x.test failed (input closed)" },
    ]);
  });
});
