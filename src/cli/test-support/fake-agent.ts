// A stand-in Agent for unit tests of the CLI: fixed tools, verdicts and reports, and a record of the
// calls it received. The real kernel is exercised by the end-to-end tests of main.ts.
import type { Agent, AgentEvent, CallReport, ContextUse, Decision, RequestPreview, Tool, ToolArgs, ToolKind, TurnEnd, UndoReport } from "../../kernel/index.js";

export function fakeTool(name: string, kind: ToolKind, source = "local"): Tool {
  return {
    name,
    description: `${name} does things`,
    inputSchema: { type: "object" },
    kind,
    source,
    originalName: name,
    run: async () => ({ text: "", isError: false }),
  };
}

export interface FakeAgentScript {
  readonly tools?: readonly Tool[];
  readonly decisions?: Readonly<Record<string, Decision>>;
  readonly callReport?: (name: string, args: ToolArgs) => CallReport;
  readonly undoReport?: UndoReport;
  /** Events a prompt emits, through the emit the fake was made with. */
  readonly promptEvents?: (text: string) => readonly AgentEvent[];
  readonly contextUse?: ContextUse;
  readonly sessionAllows?: readonly string[];
  /** What requestPreview gives; without it, every tool sent and nothing deferred. */
  readonly requestPreview?: RequestPreview;
}

export interface FakeAgent extends Agent {
  readonly received: string[];
}

export function createFakeAgent(script: FakeAgentScript, emit: (event: AgentEvent) => void = () => undefined): FakeAgent {
  const received: string[] = [];
  let tools = script.tools ?? [];
  const decide = (name: string): Decision => script.decisions?.[name] ?? { verdict: "allow", reason: "default for read tools: allow" };
  return {
    received,
    get tools() {
      return tools;
    },
    setTools(next) {
      received.push(`setTools ${next.map((tool) => tool.name).join(" ")}`);
      tools = next;
    },
    messages: [],
    contextUse: () => script.contextUse ?? null,
    requestPreview: () =>
      script.requestPreview ?? { system: "", tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })), deferred: [], messages: [] },
    hasTool: (name) => tools.some((tool) => tool.name === name),
    decide,
    sessionAllows: () => script.sessionAllows ?? [],
    async prompt(text) {
      received.push(`prompt ${text}`);
      let end: TurnEnd = "done";
      for (const event of script.promptEvents?.(text) ?? [{ type: "turn_end", reason: "done" }]) {
        emit(event);
        if (event.type === "turn_end") end = event.reason;
      }
      return end;
    },
    async call(name, args) {
      received.push(`call ${name} ${JSON.stringify(args)}`);
      const report = script.callReport?.(name, args);
      return report ?? { tool: name, isError: false, text: `ran ${name}`, truncated: false, decision: decide(name) };
    },
    async callAsPerson(name, args, _signal, told) {
      received.push(`callAsPerson ${name} ${JSON.stringify(args)}`);
      const report = script.callReport?.(name, args) ?? { tool: name, isError: false, text: `ran ${name}`, truncated: false, decision: decide(name) };
      const context = told(report);
      if (context !== null) received.push(`told ${context}`);
      return report;
    },
    async undo() {
      received.push("undo");
      return script.undoReport ?? { restored: [], notUndoable: [], nothingToUndo: true };
    },
    clear() {
      received.push("clear");
    },
    async compact() {
      received.push("compact");
      return "context compacted";
    },
  };
}
