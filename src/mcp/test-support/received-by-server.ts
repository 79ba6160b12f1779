// What the client really sent: the scripted and legacy stdio servers both answer their `received` tool with
// every message they got, and any other server can be watched through a transport that records each send.
import type { McpClient } from "../client.js";
import { isJsonObject, type JsonObject, type JsonRpcMessage, type Transport } from "../jsonrpc.js";

/** The transport as it is, with every message it is asked to send handed to `record` first. */
export function recordingTransport(transport: Transport, record: (message: JsonRpcMessage) => void): Transport {
  return {
    label: transport.label,
    cancellation: transport.cancellation,
    start: (handlers) => transport.start(handlers),
    send: (message, signal) => {
      record(message);
      return transport.send(message, signal);
    },
    close: () => transport.close(),
  };
}

export async function receivedByServer(client: McpClient): Promise<JsonObject[]> {
  const outcome = await client.callTool("received", {});
  const structured = outcome.kind === "complete" ? outcome.structuredContent : undefined;
  const messages = isJsonObject(structured) ? structured.messages : undefined;
  if (!Array.isArray(messages)) throw new Error("the server did not report what it received");
  return messages.filter(isJsonObject);
}
