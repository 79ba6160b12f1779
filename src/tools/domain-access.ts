// Which domains a sandboxed command's HTTP(S) may reach through mca's proxy (network-proxy.ts): the
// `network(…)` rules and what the person allowed for this session, judged by the gate (decideDomain), and the
// question for a domain nothing decides, put to the person through the session's approver while the command
// runs. Each domain is asked about at most once per command: a refused one stays refused for it, so a client
// that retries is refused at once instead of asking again. "Always" allows it for the session and hands the
// rule to the session to keep (the user's settings file), so that later sessions allow it without a question.
import { decideDomain, describeError, sessionAllowText, type ApprovalAnswer, type ApprovalRequest, type NobodyToAsk, type Rule, type Tool, type UserDenial } from "../kernel/index.js";

export type DomainVerdict = { readonly kind: "allowed" } | { readonly kind: "refused"; readonly why: string };

/** The session's approver: the question of the mode attached (the chat's, or the headless refusal); nobody to ask while none is. */
export type DomainApprover = (request: ApprovalRequest) => Promise<ApprovalAnswer | NobodyToAsk | UserDenial>;

/** One command's judge: `host` as the proxy read it (network-proxy.ts's target: lower case, without a trailing dot, an IPv6 address in brackets). */
export type DomainJudge = (host: string, port: number) => Promise<DomainVerdict>;

export interface DomainAccess {
  /** The judge for one run of `command` by `tool`; an "allow once" holds for this run alone. */
  forCommand(tool: Tool, command: string): DomainJudge;
  /** The domains allowed for this session, as rules would name them. */
  sessionAllows(): readonly string[];
}

/**
 * Where the answers come from, read at each connection: the session's rules (its `network(…)` ones count) and
 * the session's approver, which asks the mode running then.
 */
export interface DomainSources {
  readonly rules: () => readonly Rule[];
  readonly approve: DomainApprover;
  /**
   * Keeps `network(<domain>)` as an allow rule after an "always" (session.ts: in the user's settings file),
   * telling the person itself whether it could. Absent, "always" holds for this session only.
   */
  readonly keepRule?: (rule: string) => Promise<void>;
}

export function createDomainAccess({ rules, approve, keepRule }: DomainSources): DomainAccess {
  const sessionDomains = new Set<string>();
  return {
    forCommand(tool, command) {
      // Per domain, the one answer for this run (or the question still open, which later connections wait for).
      const answers = new Map<string, Promise<DomainVerdict>>();
      return (domain, port) => {
        const known = answers.get(domain);
        if (known !== undefined) return known;
        const decision = decideDomain(domain, rules(), sessionDomains);
        const verdict = ((): Promise<DomainVerdict> => {
          switch (decision.verdict) {
            case "allow":
              return Promise.resolve(ALLOWED);
            case "deny":
              return Promise.resolve({ kind: "refused", why: decision.reason });
            case "ask":
              return ask(domain, { tool, args: { command }, decision: questionDecision(domain, port, decision.reason), sessionAllow: { kind: "domain", domain } });
            default: {
              const unknown: never = decision.verdict;
              throw new Error(`unknown verdict ${JSON.stringify(unknown)}`);
            }
          }
        })();
        answers.set(domain, verdict);
        return verdict;
      };
    },
    sessionAllows: () => [...sessionDomains].map((domain) => sessionAllowText({ kind: "domain", domain })),
  };

  async function ask(domain: string, request: ApprovalRequest): Promise<DomainVerdict> {
    let reply: ApprovalAnswer | NobodyToAsk | UserDenial;
    try {
      reply = await approve(request);
    } catch (error) {
      return { kind: "refused", why: `the question about ${domain} failed (${describeError(error)})` };
    }
    if (typeof reply !== "string") return { kind: "refused", why: reply.kind === "denied" ? `denied by the user, who said: ${JSON.stringify(reply.because)}` : reply.reason };
    switch (reply) {
      case "always":
        sessionDomains.add(domain);
        // The connection waits for the rule to be written (a few milliseconds), so that a session started
        // after the command reads it; the session's allow holds whatever became of it.
        await keepRule?.(sessionAllowText({ kind: "domain", domain })).catch(() => undefined);
        return ALLOWED;
      case "session":
        sessionDomains.add(domain);
        return ALLOWED;
      case "once":
        return ALLOWED;
      case "deny":
        return { kind: "refused", why: "denied by the user" };
      default: {
        const unknown: never = reply;
        throw new Error(`unknown approval answer ${JSON.stringify(unknown)}`);
      }
    }
  }
}

const ALLOWED: DomainVerdict = { kind: "allowed" };

function questionDecision(domain: string, port: number, reason: string): ApprovalRequest["decision"] {
  return { verdict: "ask", reason: `the command connects to ${domain} (port ${port}) through the sandbox's proxy; ${reason}` };
}
