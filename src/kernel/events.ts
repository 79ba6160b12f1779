// Everything the agent loop reports happens as one of these events; the CLI renders them and the
// loop itself never prints.
import type { Decision } from "./decision.js";
import type { ToolArgs } from "./tool.js";

export type AgentEvent =
  | { readonly type: "text"; readonly delta: string }
  | { readonly type: "tool_start"; readonly callId: string; readonly tool: string; readonly args: ToolArgs }
  | { readonly type: "tool_progress"; readonly callId: string; readonly message: string }
  | {
      readonly type: "tool_end";
      readonly callId: string;
      readonly tool: string;
      readonly isError: boolean;
      /** The text exactly as the model receives it, after truncation. */
      readonly text: string;
      readonly truncated: boolean;
    }
  | { readonly type: "approval"; readonly callId: string; readonly tool: string; readonly decision: Decision; readonly answer?: string }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly message: string }
  | { readonly type: "turn_end"; readonly reason: "done" | "aborted" | "turn_limit" | "loop_limit" | "model_error" };
