// A stdio server built with the official SDK v1 (@modelcontextprotocol/sdk 1.32.2) whose tools declare an
// outputSchema through zod, which the SDK lists as draft-07 JSON Schema: `count_words` answers with text and
// structured content, `word_stats` with structured content alone. With `--unchecked`, the SDK's low-level
// Server, which does not check its own results, lists `count_words` with the same schema and answers it
// with a count that is no integer.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const stats = (text) => {
  const words = text.split(/\s+/).filter((word) => word !== "");
  return { count: words.length, longest: words.reduce((longest, word) => (word.length > longest.length ? word : longest), "") };
};
const outputSchema = { count: z.number().int(), longest: z.string() };

function checkedServer() {
  const server = new McpServer({ name: "structured-v1", version: "1.0.0" });
  server.registerTool("count_words", { description: "Counts the words of a text.", inputSchema: { text: z.string() }, outputSchema }, async ({ text }) => {
    const structuredContent = stats(text);
    return { content: [{ type: "text", text: `${structuredContent.count} words` }], structuredContent };
  });
  server.registerTool("word_stats", { description: "The words of a text, as structured content only.", inputSchema: { text: z.string() }, outputSchema }, async ({ text }) => ({
    content: [],
    structuredContent: stats(text),
  }));
  return server.server;
}

function uncheckedServer() {
  const server = new Server({ name: "unchecked-v1", version: "1.0.0" }, { capabilities: { tools: {} } });
  const schema = z.toJSONSchema(z.object(outputSchema), { target: "draft-7" });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "count_words", description: "Counts the words of a text.", inputSchema: { type: "object" }, outputSchema: schema }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: "text", text: "about four words" }],
    structuredContent: { count: "about four", longest: "schema" },
  }));
  return server;
}

await (process.argv.includes("--unchecked") ? uncheckedServer() : checkedServer()).connect(new StdioServerTransport());
