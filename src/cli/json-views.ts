// The `--json` shapes of the scripting contract (DESIGN "Scripting contract"): built field by field so
// that what scripts parse never changes when an internal type grows.
import type { CallReport } from "../kernel/index.js";
import type { Decision, Verdict } from "../kernel/index.js";
import type { Tool } from "../kernel/index.js";
import type { ServerStatus } from "./server-status.js";

export interface ApprovalView {
  readonly decision: Verdict;
  readonly reason: string;
}

export interface ToolView {
  readonly name: string;
  readonly source: string;
  readonly originalName: string;
  readonly description: string;
  readonly approval: ApprovalView;
}

export interface CallView {
  readonly tool: string;
  readonly isError: boolean;
  readonly text: string;
  readonly truncated: boolean;
  readonly approval: ApprovalView;
}

export function approvalView(decision: Decision): ApprovalView {
  return { decision: decision.verdict, reason: decision.reason };
}

export function toolView(tool: Tool, decision: Decision): ToolView {
  return {
    name: tool.name,
    source: tool.source,
    originalName: tool.originalName,
    description: tool.description,
    approval: approvalView(decision),
  };
}

export function callView(report: CallReport): CallView {
  return {
    tool: report.tool,
    isError: report.isError,
    text: report.text,
    truncated: report.truncated,
    approval: approvalView(report.decision),
  };
}

export function serverView(server: ServerStatus): ServerStatus {
  return {
    alias: server.alias,
    transport: server.transport,
    state: server.state,
    protocolVersion: server.protocolVersion,
    tools: server.tools,
    error: server.error,
    stderrTail: server.stderrTail,
  };
}

/** Pretty-printed with a final newline: readable in a terminal, parseable by `JSON.parse` and `jq`. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
