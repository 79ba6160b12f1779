// Self-test assertions about the agent's side: remote tools through the real kernel (truncation, the
// namespace, the approval gate), the config's duplicate check, long names, and failure isolation.
import { createHash } from "node:crypto";
import { ConfigError } from "../config/index.js";
import { parseMcpConfig } from "../config/index.js";
import { MAX_RESULT_CHARS, type CallReport, type ToolArgs } from "../kernel/index.js";
import { buildNamespace } from "../mcp/index.js";
import { callSignal, check, type Assertion } from "./check.js";
import { NOTES_MIRROR_ALIAS, type ReceivedCall, type Session } from "./fixture.js";

/** Calls `name` through the session's agent, with the tools/call messages its servers were sent meanwhile. */
async function callRecorded(session: Session, name: string, args: ToolArgs): Promise<{ report: CallReport; received: ReceivedCall[] }> {
  const before = session.received.length;
  const report = await session.agent.call(name, args, callSignal());
  return { report, received: session.received.slice(before) };
}

/** Where the session's tickets was configured to be: what a failure to reach it must name. */
function ticketsUrl(session: Session): string {
  const spec = session.config.servers.find((server) => server.alias === "tickets");
  check(spec?.transport === "http", "mcp.config.json has no HTTP server named tickets");
  return spec.url;
}

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
      const tool = main.agent.tools.find((candidate) => candidate.source === NOTES_MIRROR_ALIAS && candidate.originalName === "search");
      check(tool !== undefined, `notes mounted again as ${NOTES_MIRROR_ALIAS} has no search tool`);
      const [, alias, name] = tool.name.split("__");
      check(alias !== NOTES_MIRROR_ALIAS && name !== "search", `${tool.name} can be split back into its server and tool; it proves nothing about the table`);
      const found = main.mounted.lookup(tool.name);
      check(found?.alias === NOTES_MIRROR_ALIAS && found.tool === "search", `${tool.name} reverses to ${JSON.stringify(found)}`);
      const { report, received } = await callRecorded(main, tool.name, { query: "note" });
      check(!report.isError, `${tool.name} failed: ${report.text.slice(0, 200)}`);
      const expected = [{ server: NOTES_MIRROR_ALIAS, tool: "search" }];
      check(JSON.stringify(received) === JSON.stringify(expected), `calling ${tool.name} sent ${JSON.stringify(received)}, not ${JSON.stringify(expected)}`);
      return `${tool.name} (${tool.name.length} characters) reached the second notes as "search", through the table`;
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
        const { report, received } = await callRecorded(main, name, args);
        check(!report.isError, `${name} failed: ${report.text.slice(0, 200)}`);
        const sent = received.map((call) => call.tool);
        check(sent.length === 1 && sent[0] === "search", `for ${name} the server received ${JSON.stringify(sent)}, not "search"`);
      }
      return "notes and tickets each received `search` and answered successfully";
    },
  },
  "read-only-untrusted": {
    name: "read-only-untrusted",
    async run({ main }) {
      const tool = main.agent.tools.find((candidate) => candidate.name === "mcp__tickets__search");
      check(tool?.annotations?.readOnlyHint === true, "tickets' search does not declare readOnlyHint: true");
      const decision = main.agent.decide("mcp__tickets__search");
      check(decision.verdict === "ask", `the gate says ${decision.verdict} (${decision.reason})`);
      const before = main.asked.length;
      await main.agent.call("mcp__tickets__search", { query: "T-1" }, callSignal());
      const asked = main.asked.slice(before).filter((entry) => entry.tool === "mcp__tickets__search");
      check(asked.length === 1 && asked[0]?.verdict === "ask", "the gate did not ask when mcp__tickets__search was called");
      return `readOnlyHint: true, yet the gate says ask (${decision.reason})`;
    },
  },
  "duplicate-alias": {
    name: "duplicate-alias",
    async run() {
      const text = '{ "mcpServers": { "notes": { "command": "a" }, "notes": { "command": "b" } } }';
      const parsed = parseMcpConfig(text, "duplicate.json", {});
      check(parsed instanceof ConfigError, "a config naming notes twice was accepted");
      const place = { file: parsed.file, path: parsed.path, column: parsed.position?.column };
      const second = { file: "duplicate.json", path: "mcpServers.notes", column: text.lastIndexOf('"notes"') + 1 };
      check(JSON.stringify(place) === JSON.stringify(second), `the error points at ${JSON.stringify(place)}, not the second notes ${JSON.stringify(second)}`);
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
      const url = ticketsUrl(isolated);
      check(tickets?.state === "failed" && tickets.error?.includes(url) === true, `tickets is ${tickets?.state ?? "missing"} (${tickets?.error ?? "no reason"}), not failed naming ${url}`);
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
      const name = "mcp__tickets__search";
      check(isolated.mounted.findTool(name)?.source === "tickets", `${name} is not answered for tickets, the server that failed`);
      const report = await isolated.agent.call(name, { query: "T-" }, callSignal());
      const url = ticketsUrl(isolated);
      check(report.isError, "the call to a failed server did not fail");
      check(report.text.includes("tickets") && report.text.includes(url), `the result does not name tickets and the address it could not reach (${url}): ${report.text}`);
      const state = isolated.mounted.statuses().find((status) => status.alias === "tickets")?.state;
      check(state === "failed", `the status view shows tickets as ${state}`);
      return report.text;
    },
  },
};
