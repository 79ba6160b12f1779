// `mca mcp doctor [alias] [--json]`: starts the configured servers (all, or the one named), each timed on its
// own, and reports how each came up, what its tool definitions cost in tokens, and the lint of every
// definition (src/mcp/tool-lint.ts). Exits 1 when a server did not start or a definition has an error.
import type { ToolSpec } from "../kernel/index.js";
import { isLegacyVersion, lintTools, type LintFinding, type McpConfig, type MountedServers, type RemoteToolInfo } from "../mcp/index.js";
import { toolDefinitionTokens } from "./context-report.js";
import { disabledStatuses, mountConfiguredServers, NO_SERVERS_MESSAGE, type MountDeps, type ServerStatus } from "./mcp-servers.js";
import { USAGE_EXIT_CODE } from "./program.js";
import { untrustedJson, untrustedText } from "./untrusted-text.js";

export interface DoctorDeps {
  readonly config: McpConfig | null;
  readonly mountDeps: MountDeps;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Milliseconds from any fixed point (performance.now): a server's start time is a difference of two. */
  readonly now: () => number;
}

/** One server as `mca mcp doctor --json` reports it: a scripting contract, so fields are only ever added. */
export interface DoctorServer {
  readonly alias: string;
  readonly transport: ServerStatus["transport"];
  readonly state: ServerStatus["state"];
  /** "modern" (2026-07-28) or "legacy" (initialize-based); null when it did not come up. */
  readonly era: "modern" | "legacy" | null;
  readonly protocolVersion: string | null;
  /** From the start of its connection to its tools listed, or to its failure; null for a disabled server. */
  readonly startMs: number | null;
  readonly tools: number;
  /** Estimated: one token per 4 characters of the definitions' JSON as the model gets them. */
  readonly definitionTokens: number;
  readonly error: string | null;
  readonly stderrTail: string | null;
  readonly findings: readonly LintFinding[];
}

export interface DoctorReport {
  readonly servers: readonly DoctorServer[];
}

interface Started {
  readonly status: ServerStatus;
  readonly startMs: number | null;
  readonly definitions: readonly RemoteToolInfo[];
  readonly offered: readonly ToolSpec[];
}

export async function runDoctorCommand(deps: DoctorDeps, alias: string | undefined, json: boolean): Promise<number> {
  const { config } = deps;
  const chosen = config === null ? [] : config.servers.filter((server) => alias === undefined || server.alias === alias);
  if (config !== null && alias !== undefined && chosen.length === 0) {
    const aliases = config.servers.map((server) => server.alias).join(", ");
    deps.err(untrustedText(`mca mcp doctor: no MCP server ${JSON.stringify(alias)} in ${config.file}${aliases === "" ? "" : `; its servers: ${aliases}`}\n`));
    return USAGE_EXIT_CODE;
  }
  if (config === null) {
    deps.out(json ? untrustedJson({ servers: [] }) : `${NO_SERVERS_MESSAGE}\n`);
    return alias === undefined ? 0 : USAGE_EXIT_CODE;
  }
  const mounted: MountedServers[] = [];
  try {
    // Each server mounted on its own, all at once: each start is timed alone, and one slow server delays no other's figure.
    const started = await Promise.all(
      chosen.map(async (server): Promise<Started> => {
        if (!server.enabled) {
          const [status] = disabledStatuses({ ...config, servers: [server] });
          if (status === undefined) throw new Error(`no status for the disabled server ${server.alias}`);
          return { status, startMs: null, definitions: [], offered: [] };
        }
        const began = deps.now();
        const servers = await mountConfiguredServers({ ...config, servers: [server] }, deps.mountDeps);
        mounted.push(servers);
        const startMs = Math.round(deps.now() - began);
        const [status] = servers.statuses();
        if (status === undefined) throw new Error(`no status for the server ${server.alias}`);
        return { status, startMs, definitions: servers.connections.flatMap((connection) => connection.tools), offered: servers.tools };
      }),
    );
    const findings = await lintTools(started.map(({ status, definitions }) => ({ alias: status.alias, tools: definitions })));
    const report: DoctorReport = { servers: started.map((server) => doctorServer(server, findings)) };
    deps.out(json ? untrustedJson(report) : formatDoctorReport(report).map((line) => `${line}\n`).join(""));
    return doctorExitCode(report);
  } finally {
    await Promise.all(mounted.map((servers) => servers.close()));
  }
}

function doctorServer({ status, startMs, offered }: Started, findings: readonly LintFinding[]): DoctorServer {
  const version = status.protocolVersion;
  return {
    alias: status.alias,
    transport: status.transport,
    state: status.state,
    era: version === null ? null : isLegacyVersion(version) ? "legacy" : "modern",
    protocolVersion: version,
    startMs,
    tools: status.tools,
    definitionTokens: toolDefinitionTokens(offered),
    error: status.error,
    stderrTail: status.stderrTail,
    findings: findings.filter((finding) => finding.server === status.alias),
  };
}

/** 1 when a server that should have started did not, or a definition has an error the model API would refuse. */
export function doctorExitCode(report: DoctorReport): number {
  const failed = report.servers.some((server) => server.state !== "connected" && server.state !== "disabled");
  const errors = report.servers.some((server) => server.findings.some((finding) => finding.severity === "error"));
  return failed || errors ? 1 : 0;
}

const SEVERITY_WIDTH = "warning".length;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function headerLine(server: DoctorServer): string {
  const parts = [server.alias, server.transport];
  if (server.state === "disabled") return [...parts, "disabled in the config"].join("  ");
  if (server.state !== "connected") return [...parts, `${server.state} after ${server.startMs ?? 0} ms`].join("  ");
  const era = server.era === null ? "" : ` (${server.era})`;
  return [...parts, `connected in ${server.startMs ?? 0} ms`, `protocol ${server.protocolVersion ?? "-"}${era}`, plural(server.tools, "tool"), `≈${server.definitionTokens.toLocaleString("en-US")} tokens of definitions`].join("  ");
}

/** A line that names what a server wrote stays one line: a newline in a tool's name cannot forge a finding of its own. */
function oneLine(text: string): string {
  return untrustedText(text).replace(/\r?\n/gu, "\\n");
}

/** Per server a header line, then its findings (or why it did not start, its stderr's tail included), then one line of totals. */
export function formatDoctorReport(report: DoctorReport): string[] {
  if (report.servers.length === 0) return [NO_SERVERS_MESSAGE];
  const lines: string[] = [];
  for (const server of report.servers) {
    lines.push(oneLine(headerLine(server)));
    for (const finding of server.findings) lines.push(oneLine(`  ${finding.severity.padEnd(SEVERITY_WIDTH)}  ${finding.tool}: ${finding.message}`));
    if (server.state === "connected" && server.findings.length === 0) lines.push("  no findings");
    const reason = server.state === "connected" || server.state === "disabled" ? "" : (server.error ?? "no reason given").trim();
    for (const line of reason === "" ? [] : reason.split(/\r?\n/u)) lines.push(untrustedText(`  error| ${line}`));
  }
  const all = report.servers.flatMap((server) => server.findings);
  const count = (severity: LintFinding["severity"]): number => all.filter((finding) => finding.severity === severity).length;
  const down = report.servers.filter((server) => server.state !== "connected" && server.state !== "disabled").length;
  const totals = `${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}, ${plural(count("info"), "note")}`;
  lines.push(`${plural(report.servers.length, "server")}: ${totals}${down === 0 ? "" : `; ${down} did not start`} (tokens estimated at 4 characters each)`);
  return lines;
}
