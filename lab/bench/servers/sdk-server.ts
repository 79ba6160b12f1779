// The SDK v2 server every SDK-served case uses: one `payload` tool declared with zod, built fresh by the
// factory the SDK calls per connection (stdio) or per request (HTTP), as the SDK's own guides do it.
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { PAYLOAD_TOOL } from "./answers.js";

const texts = new Map<number, string>();

function textOf(bytes: number): string {
  let text = texts.get(bytes);
  if (text === undefined) {
    text = "x".repeat(bytes);
    texts.set(bytes, text);
  }
  return text;
}

export function createSdkServer(): McpServer {
  const server = new McpServer({ name: "bench-sdk", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    PAYLOAD_TOOL,
    { description: "Answers with `bytes` characters of text.", inputSchema: z.object({ bytes: z.number().int().min(0) }) },
    ({ bytes }) => ({ content: [{ type: "text", text: textOf(bytes) }] }),
  );
  return server;
}
