// Diagnostic tools the conformance `server-stateless` scenario looks for by name (spec digest §11.4).
// Off by default, so the demo's model never sees them; `--conformance-fixtures` turns them on for the lab.
import { isJsonObject } from "../shared/json.js";
import { MISSING_CLIENT_CAPABILITY, rpcError } from "../shared/rpc-error.js";
import { NO_ARGUMENTS, textOutcome, type ToolEntry, type ToolOutcome } from "../shared/tool.js";
import type { JsonObject } from "../../src/mcp/jsonrpc.js";

function missing(capability: string, why: string): ToolOutcome {
  const message = `Missing required client capability: ${capability} (${why})`;
  return { kind: "error", error: rpcError(MISSING_CLIENT_CAPABILITY, message, { requiredCapabilities: { [capability]: {} } }) };
}

function declares(capabilities: JsonObject, capability: string): boolean {
  return isJsonObject(capabilities[capability]);
}

export const CONFORMANCE_FIXTURE_TOOLS: readonly ToolEntry[] = [
  {
    definition: {
      name: "test_missing_capability",
      description: "Conformance fixture: needs the sampling capability and answers -32021 when it was not declared.",
      inputSchema: NO_ARGUMENTS,
    },
    call: ({ meta }) =>
      declares(meta.clientCapabilities, "sampling") ? textOutcome("sampling was declared") : missing("sampling", "test_missing_capability samples"),
  },
  {
    definition: {
      name: "test_streaming_elicitation",
      description: "Conformance fixture: answers on an event stream with an input_required result, never with a request.",
      inputSchema: NO_ARGUMENTS,
    },
    streamed: true,
    call({ meta }) {
      if (!declares(meta.clientCapabilities, "elicitation")) return missing("elicitation", "test_streaming_elicitation asks a question");
      const ask = { method: "elicitation/create", params: { mode: "form", message: "Continue?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } };
      return { kind: "input_required", inputRequests: { ask }, requestState: "conformance-fixture" };
    },
  },
  {
    definition: {
      name: "test_logging_tool",
      description: "Conformance fixture: answers on an event stream and logs only when the request set a logLevel.",
      inputSchema: NO_ARGUMENTS,
    },
    streamed: true,
    call: () => textOutcome("done"),
  },
];
