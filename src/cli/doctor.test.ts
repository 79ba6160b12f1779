// `mca mcp doctor` through the real CLI, against real stdio servers: the notes demo server (clean), a server
// whose every tool has one defect, and a command that does not exist.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_NOTES_SERVER, createTempProject, type TempProject } from "./test-support/run-cli.js";

const DEFECTIVE_SERVER = fileURLToPath(new URL("../mcp/test-support/defective-tools-server.mjs", import.meta.url));

const CONFIG = {
  mcpServers: {
    notes: { command: process.execPath, args: [BUILT_NOTES_SERVER] },
    defects: { command: process.execPath, args: [DEFECTIVE_SERVER] },
    gone: { command: "./no-such-server" },
    later: { command: "./no-such-server", enabled: false },
  },
};

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject();
  await writeFile(join(project.dir, "servers.json"), JSON.stringify(CONFIG));
});

afterEach(async () => {
  await project.remove();
});

function doctor(...args: string[]) {
  return project.run(["mcp", "doctor", ...args, "--mcp-config", "servers.json"], "");
}

/** Start times and the notes server's size vary; everything else is fixed. */
function steady(text: string): string {
  return text.replace(/\d+ ms/gu, "N ms").replace(/≈[\d,]+ tokens/u, "≈N tokens");
}

const LONG_NAME = `fetch_${"x".repeat(60)}`;
const finding = (severity: string, check: string, tool: string, message: string) => ({ severity, check, server: "defects", tool, message });

describe("mca mcp doctor", () => {
  it("reports each server, its findings, and the one that did not start, and exits 1", async () => {
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    expect(steady(run.stdout).split("\n")).toEqual([
      "notes  stdio  connected in N ms  protocol 2026-07-28 (modern)  3 tools  ≈N tokens of definitions",
      "  no findings",
      "defects  stdio  connected in N ms  protocol 2026-07-28 (modern)  11 tools  ≈1,188 tokens of definitions",
      "  warning  find notes: its name has characters outside [a-zA-Z0-9_-], which the model API refuses in a tool name: mca offers it as mcp__defects__find_notes",
      expect.stringMatching(
        /^ {2}warning {2}fetch_x{60}: mcp__defects__fetch_x{60} is 80 characters, more than the 64 the model API accepts: mca offers it as mcp__defects__fetch_x{37}_[0-9a-f]{6}$/u,
      ),
      "  warning  undescribed: no description: the model has only the name to choose it by",
      "  warning  verbose: its description is 2,500 characters (more than 2,000): every request carries all of it",
      '  error    stringly: its inputSchema is not an object schema (type "string"): the model API takes only "type": "object"',
      '  error    missing_field: its inputSchema requires "rev", not among its properties',
      "  error    either: its inputSchema has oneOf at the top level, which the model API refuses",
      '  warning  read-note: its name is the same as, or one letter from, "read_note" of "notes" (case, "_" and "-" ignored): the model may take one for the other',
      "  error    bad_output: its outputSchema cannot be compiled, so its results go unchecked: schema is invalid: data/properties/n/minimum must be number",
      '  warning  list_output: its outputSchema is not an object schema (type "array"): structured results are JSON objects',
      "  info     unannotated: no annotations: every call asks anyway, but the model cannot tell read from write",
      "gone  stdio  failed after N ms",
      "  error| cannot start `./no-such-server`: command not found (ENOENT)",
      "later  stdio  disabled in the config",
      "4 servers: 4 errors, 6 warnings, 1 note; 1 did not start (tokens estimated at 4 characters each)",
      "",
    ]);
  });

  it("prints one JSON object of servers and their findings", async () => {
    const run = await doctor("--json");
    expect(run.code).toBe(1);
    const server = (alias: string, state: string, rest: object) => ({
      alias,
      transport: "stdio",
      state,
      era: "modern",
      protocolVersion: "2026-07-28",
      startMs: expect.any(Number),
      error: null,
      stderrTail: null,
      findings: [],
      ...rest,
    });
    expect(JSON.parse(run.stdout)).toEqual({
      servers: [
        server("notes", "connected", { tools: 3, definitionTokens: expect.any(Number), stderrTail: expect.any(String) }),
        server("defects", "connected", {
          tools: 11,
          definitionTokens: 1188,
          findings: [
            finding("warning", "name-sanitised", "find notes", expect.stringContaining("mca offers it as mcp__defects__find_notes")),
            finding("warning", "name-suffixed", LONG_NAME, expect.stringContaining("is 80 characters")),
            finding("warning", "no-description", "undescribed", expect.any(String)),
            finding("warning", "long-description", "verbose", expect.stringContaining("2,500 characters")),
            finding("error", "input-not-object", "stringly", expect.any(String)),
            finding("error", "required-not-in-properties", "missing_field", expect.stringContaining('"rev"')),
            finding("error", "input-top-level-combinator", "either", expect.stringContaining("oneOf")),
            finding("warning", "near-duplicate-name", "read-note", expect.stringContaining('"read_note" of "notes"')),
            finding("error", "output-schema-invalid", "bad_output", expect.any(String)),
            finding("warning", "output-schema-not-object", "list_output", expect.any(String)),
            finding("info", "no-annotations", "unannotated", expect.any(String)),
          ],
        }),
        server("gone", "failed", { era: null, protocolVersion: null, tools: 0, definitionTokens: 0, error: "cannot start `./no-such-server`: command not found (ENOENT)" }),
        server("later", "disabled", { era: null, protocolVersion: null, startMs: null, tools: 0, definitionTokens: 0 }),
      ],
    });
  });

  it("checks only the server named, and exits 0 when it is clean", async () => {
    const run = await doctor("notes");
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(steady(run.stdout)).toBe(
      [
        "notes  stdio  connected in N ms  protocol 2026-07-28 (modern)  3 tools  ≈N tokens of definitions",
        "  no findings",
        "1 server: 0 errors, 0 warnings, 0 notes (tokens estimated at 4 characters each)",
        "",
      ].join("\n"),
    );
  });

  it("refuses an alias the config does not name, starting nothing", async () => {
    expect(await doctor("nope")).toEqual({
      code: 2,
      stdout: "",
      stderr: `mca mcp doctor: no MCP server "nope" in ${join(project.dir, "servers.json")}; its servers: notes, defects, gone, later\n`,
    });
  });
});
