// A 2026-07-28 server over stdio built with the official TypeScript server SDK v2 (@modelcontextprotocol/server
// 2.4.0) with what MCP Apps servers and newer SDKs offer: a titled tool with icons, a tool kept for its app's view
// (`_meta.ui.visibility: ["app"]`), the view itself as a `ui://` resource, and completion of a prompt's
// arguments and of a resource template's variable (the SDK's `completable()` and template `complete`).
// Run as `node --import tsx apps-v2-stdio-main.ts`; it ends when stdin closes.
import { completable, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const FILES = ["src/a.ts", "src/b.ts", "test/a.test.ts"];
const NAMES = ["Alice", "Alan", "Bob"];

function createAppsServer(): McpServer {
  const server = new McpServer({ name: "apps-v2", version: "1.0.0" }, { capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} } });
  server.registerTool(
    "create_ticket",
    {
      title: "Create ticket",
      description: "Opens a ticket",
      inputSchema: z.object({ summary: z.string() }),
      icons: [
        { src: "https://example.com/ticket.png", mimeType: "image/png", sizes: ["48x48"] },
        { src: "javascript:alert(1)", mimeType: "image/png" },
      ],
    },
    async ({ summary }) => ({ content: [{ type: "text", text: `opened: ${summary}` }] }),
  );
  server.registerTool(
    "render_page",
    { description: "Draws a page in the viewer", inputSchema: z.object({ page: z.number() }), _meta: { ui: { resourceUri: "ui://viewer/page.html", visibility: ["app"] } } },
    async () => ({ content: [{ type: "text", text: "drawn" }] }),
  );
  server.registerResource("viewer", "ui://viewer/page.html", { title: "PDF viewer", mimeType: "text/html;profile=mcp-app" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/html;profile=mcp-app", text: "<!doctype html><p>viewer</p>" }],
  }));
  server.registerResource(
    "greeting",
    new ResourceTemplate("greeting://{name}", { list: undefined, complete: { name: (value) => NAMES.filter((name) => name.startsWith(value)) } }),
    { title: "Greeting" },
    async (uri, { name }) => ({ contents: [{ uri: uri.href, text: `Hello, ${String(name)}!` }] }),
  );
  server.registerPrompt(
    "review",
    {
      title: "Review a file",
      description: "Reviews one file",
      argsSchema: z.object({
        file: completable(z.string(), (value) => FILES.filter((file) => file.startsWith(value))),
        // What the focus may be depends on the file already given: the server reads it from the context.
        focus: completable(z.string(), (value, context) =>
          (context?.arguments?.file?.startsWith("test/") ? ["coverage", "flakiness"] : ["speed", "safety"]).filter((focus) => focus.startsWith(value)),
        ).optional(),
      }),
    },
    ({ file, focus }) => ({ messages: [{ role: "user", content: { type: "text", text: `Review ${file}${focus === undefined ? "" : ` for ${focus}`}.` } }] }),
  );
  return server;
}

serveStdio(() => createAppsServer());
