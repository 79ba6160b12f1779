// A stdio server built with the official TypeScript SDK v1 that offers one image as a resource (a PNG blob),
// which server-everything does not: for `@alias:uri` image attachments. It has a tool too: mca mounts a
// server by listing its tools.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/** A 2×3 PNG: its signature and IHDR chunk, all a client's image check reads. */
export const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0, 0, 0, 0, 0]).toString("base64");

const server = new McpServer({ name: "resource-images", version: "1.0.0" });
server.registerResource("logo", "pics://logo.png", { mimeType: "image/png", description: "The logo" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG_BASE64 }],
}));
server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [{ type: "text", text: "pong" }] }));
await server.connect(new StdioServerTransport());
