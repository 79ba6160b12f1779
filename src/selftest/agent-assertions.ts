// Self-test assertions about the agent's side: remote tools through the real kernel (truncation, the
// namespace, the approval gate), the config's duplicate check, long names, and failure isolation.
import { createHash } from "node:crypto";
import { ConfigError } from "../config/index.js";
import { parseMcpConfig } from "../config/index.js";
import { MAX_RESULT_CHARS } from "../kernel/index.js";
import { buildNamespace } from "../mcp/index.js";
import { callSignal, check, type Assertion } from "./check.js";

const CUT_SENTENCE = "\n\n[92000 more characters were cut to fit the budget]";

export const AGENT_ASSERTIONS: Readonly<Record<string, Assertion>> = {
  truncation: {
    name: "truncation",
    async run({ main }) {
      const report = await main.agent.call("mcp__notes__read_note", { id: "long" }, callSignal());
      check(!report.isError, `the call failed: ${report.text.slice(0, 200)}`);
      check(report.text.length === 8052, `expected 8,052 characters, got ${report.text.length}`);
      check(report.text.endsWith(CUT_SENTENCE), `the text does not end with the 52-character sentence`);
      check(report.text.length - CUT_SENTENCE.length === MAX_RESULT_CHARS, "the body is not 8,000 characters");
      return "8,000 characters of body + the 52-character sentence = 8,052";
    },
  },
  namespace: {
    name: "namespace",
    async run({ main }) {
      const notes = main.mounted.lookup("mcp__notes__search");
      const tickets = main.mounted.lookup("mcp__tickets__search");
      check(notes?.alias === "notes" && notes.tool === "search", `mcp__notes__search reverses to ${JSON.stringify(notes)}`);
      check(tickets?.alias === "tickets" && tickets.tool === "search", `mcp__tickets__search reverses to ${JSON.stringify(tickets)}`);
      return "mcp__notes__search → notes/search, mcp__tickets__search → tickets/search, through the table";
    },
  },
  "original-name": {
    name: "original-name",
    async run({ main }) {
      const calls = [
        ["mcp__notes__search", { query: "note" }],
        ["mcp__tickets__search", { query: "T-" }],
      ] as const;
      for (const [name, args] of calls) {
        const report = await main.agent.call(name, args, callSignal());
        check(!report.isError, `${name} failed: ${report.text.slice(0, 200)}`);
      }
      return "both servers received `search` and answered successfully";
    },
  },
  "read-only-untrusted": {
    name: "read-only-untrusted",
    async run({ main }) {
      const tool = main.agent.tools.find((candidate) => candidate.name === "mcp__tickets__search");
      check(tool?.annotations?.readOnlyHint === true, "tickets' search does not declare readOnlyHint: true");
      const decision = main.agent.decide("mcp__tickets__search");
      check(decision.verdict === "ask", `the gate says ${decision.verdict} (${decision.reason})`);
      const asked = main.asked.some((entry) => entry.tool === "mcp__tickets__search" && entry.verdict === "ask");
      check(asked, "the gate did not ask when mcp__tickets__search was called");
      return `readOnlyHint: true, yet the gate says ask (${decision.reason})`;
    },
  },
  "duplicate-alias": {
    name: "duplicate-alias",
    async run() {
      const text = '{ "mcpServers": { "notes": { "command": "a" }, "notes": { "command": "b" } } }';
      const parsed = parseMcpConfig(text, "duplicate.json", {});
      check(parsed instanceof ConfigError, "a config naming notes twice was accepted");
      check(parsed.message.includes("notes") && parsed.message.includes("duplicate.json"), `the error does not name the alias and file: ${parsed.message}`);
      return parsed.message;
    },
  },
  "long-name": {
    name: "long-name",
    async run() {
      const alias = "a-rather-long-server-alias";
      const [one, two] = [`${"x".repeat(40)}_one`, `${"x".repeat(40)}_two`];
      const namespace = buildNamespace([{ alias, tool: one }, { alias, tool: two }, { alias: "my server", tool: "read.file" }]);
      const [first, second] = [namespace.flatName(alias, one), namespace.flatName(alias, two)];
      const hash = createHash("sha1").update(`${alias}::${one}`).digest("hex").slice(0, 6);
      check(first.length === 64 && second.length === 64, `lengths ${first.length} and ${second.length}, not 64`);
      check(first !== second, `two long names collapsed into ${first}`);
      check(first.endsWith(`_${hash}`), `${first} does not end with _ and the SHA-1 of alias::tool (${hash})`);
      const illegal = namespace.flatName("my server", "read.file");
      check(illegal === "mcp__my_server__read_file", `illegal characters gave ${illegal}`);
      return `${first} / ${second}; "my server"+"read.file" → ${illegal}`;
    },
  },
  isolation: {
    name: "isolation",
    async run({ isolated }) {
      const tickets = isolated.mounted.statuses().find((status) => status.alias === "tickets");
      check(tickets?.state === "failed" && tickets.error !== null, `tickets is ${tickets?.state ?? "missing"}, not failed with a reason`);
      const calls = [["mcp__notes__list_notes", {}], ["mcp__notes__search", { query: "list" }], ["mcp__notes__read_note", { id: "welcome" }]] as const;
      for (const [name, args] of calls) {
        const report = await isolated.agent.call(name, args, callSignal());
        check(!report.isError, `${name} failed with tickets down: ${report.text.slice(0, 200)}`);
      }
      return `tickets failed (${tickets.error}); notes' three tools still answer`;
    },
  },
  "dead-server-call": {
    name: "dead-server-call",
    async run({ isolated }) {
      const report = await isolated.agent.call("mcp__tickets__search", { query: "T-" }, callSignal());
      check(report.isError, "the call to a failed server did not fail");
      check(report.text.includes('"tickets"') && report.text.includes("cannot reach"), `the result does not name tickets and its reason: ${report.text}`);
      check(!/unknown tool/i.test(report.text), `the result is an unknown-tool error: ${report.text}`);
      const state = isolated.mounted.statuses().find((status) => status.alias === "tickets")?.state;
      check(state === "failed", `the status view shows tickets as ${state}`);
      return report.text;
    },
  },
};
