// What a test server process has read so far: the scripted and legacy stdio servers both answer their
// `received` tool with every message they got, so a test can check what the client really sent.
import type { McpClient } from "../client.js";
import { isJsonObject, type JsonObject } from "../jsonrpc.js";

export async function receivedByServer(client: McpClient): Promise<JsonObject[]> {
  const outcome = await client.callTool("received", {});
  const structured = outcome.kind === "complete" ? outcome.structuredContent : undefined;
  const messages = isJsonObject(structured) ? structured.messages : undefined;
  if (!Array.isArray(messages)) throw new Error("the server did not report what it received");
  return messages.filter(isJsonObject);
}
