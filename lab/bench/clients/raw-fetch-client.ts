// The raw HTTP anchor client: Node's built-in fetch, one POST per request with the headers the spec asks
// for, `response.json()`, no validation. It reads JSON replies only (the plain server sends nothing else).
import { PAYLOAD_TOOL, PROTOCOL_VERSION } from "../servers/answers.js";
import { textLength, type BenchClient, type Endpoint } from "./bench-client.js";
import { countAllTools, requestLine, resultOf } from "./request-meta.js";

export function connectRawFetch(endpoint: Extract<Endpoint, { kind: "http" }>): BenchClient {
  let nextId = 1;

  async function request(method: string, params: Record<string, unknown>, name?: string): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL_VERSION,
      "mcp-method": method,
    };
    if (name !== undefined) headers["mcp-name"] = name;
    const response = await fetch(endpoint.url, { method: "POST", headers, body: requestLine(nextId++, method, params) });
    const result = resultOf(await response.json());
    if (result instanceof Error) throw result;
    return result;
  }

  return {
    call: async (bytes) => textLength((await request("tools/call", { name: PAYLOAD_TOOL, arguments: { bytes } }, PAYLOAD_TOOL)).content),
    listTools: () => countAllTools((params) => request("tools/list", params)),
    close: () => Promise.resolve(),
  };
}
