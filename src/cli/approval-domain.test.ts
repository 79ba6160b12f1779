import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, Decision } from "../kernel/index.js";
import { promptForApproval } from "./approval.js";
import { fakeTool } from "./test-support/fake-agent.js";
import { createScriptedAsker } from "./test-support/scripted-asker.js";
import type { Asker } from "./terminal.js";

const bash = fakeTool("bash", "exec");
const decision: Decision = { verdict: "ask", reason: "the command connects to registry.npmjs.org (port 443) through the sandbox's proxy; no rule allows registry.npmjs.org" };

/** A scripted asker that also records each question's choices, title and value. */
function recordingAsker(answers: ReadonlyArray<string | undefined>): { readonly asker: Asker; readonly choices: Array<Array<readonly [string, string]>> } {
  const scripted = createScriptedAsker(answers);
  const choices: Array<Array<readonly [string, string]>> = [];
  return {
    choices,
    asker: {
      ...scripted,
      select: async (message, offered) => {
        choices.push(offered.map((choice): readonly [string, string] => [choice.title, String(choice.value)]));
        return scripted.select(message, offered);
      },
    },
  };
}

describe("promptForApproval of a sandboxed command's connection to a domain", () => {
  it("offers once, this session, always as a rule in the user's settings, and deny, and answers 'always' when chosen", async () => {
    const { asker, choices } = recordingAsker(["always"]);
    const request: ApprovalRequest = { tool: bash, args: { command: "npm install" }, decision, sessionAllow: { kind: "domain", domain: "registry.npmjs.org" } };
    expect(await promptForApproval(request, new Chalk({ level: 0 }), asker)).toBe("always");
    expect(choices).toEqual([
      [
        ["Allow once", "once"],
        ["Allow connections to registry.npmjs.org for this session", "session"],
        ["Always allow connections to registry.npmjs.org (adds network(registry.npmjs.org) to your settings)", "always"],
        ["Deny", "deny"],
        ["Deny, and tell the model why", "why"],
      ],
    ]);
  });

  it("never offers 'always' for a tool call, whatever the gate offers for the session", async () => {
    const { asker, choices } = recordingAsker(["once", "once"]);
    const ask: Decision = { verdict: "ask", reason: "default for exec tools: ask" };
    await promptForApproval({ tool: bash, args: { command: "npm install" }, decision: ask, sessionAllow: { kind: "command", tool: "bash", prefix: ["npm", "install"] } }, new Chalk({ level: 0 }), asker);
    await promptForApproval({ tool: fakeTool("write_file", "write"), args: { path: "a" }, decision: ask, sessionAllow: { kind: "tool", tool: "write_file" } }, new Chalk({ level: 0 }), asker);
    expect(choices.map((offered) => offered.map(([, value]) => value))).toEqual([
      ["once", "session", "deny", "why"],
      ["once", "session", "deny", "why"],
    ]);
  });
});
