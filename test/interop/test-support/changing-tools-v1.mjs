// A legacy (2025-11-25) stdio server built with the official TypeScript SDK v1 whose tools change at run
// time: `enable_extra` registers `add_tag` and removes `old_tool`, and the SDK sends
// notifications/tools/list_changed for each of the two changes.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "changing-v1", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });

server.registerTool("status", { description: "Says the server is up." }, () => text("up"));
const oldTool = server.registerTool("old_tool", { description: "Offered until enable_extra is called." }, () => text("old"));
server.registerTool("enable_extra", { description: "Adds add_tag and removes old_tool." }, () => {
  server.registerTool("add_tag", { description: "Tags something.", inputSchema: { tag: z.string() } }, ({ tag }) => text(`tagged ${tag}`));
  oldTool.remove();
  return text("enabled");
});

await server.connect(new StdioServerTransport());
