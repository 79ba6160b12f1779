// A legacy (2025-11-25) stdio server built with the official TypeScript SDK v1 (1.32.2) that completes a
// prompt's arguments (completable) and a resource template's variable, as most servers people run today would.
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const FILES = ["src/a.ts", "src/b.ts", "test/a.test.ts"];
const NAMES = ["Alice", "Alan", "Bob"];

const server = new McpServer({ name: "completing-v1", version: "1.0.0" });
server.registerPrompt(
  "review",
  {
    title: "Review a file",
    description: "Reviews one file",
    argsSchema: {
      file: completable(z.string(), (value) => FILES.filter((file) => file.startsWith(value))),
      focus: completable(z.string().optional(), (value, context) =>
        (context?.arguments?.file?.startsWith("test/") ? ["coverage", "flakiness"] : ["speed", "safety"]).filter((focus) => focus.startsWith(value ?? "")),
      ),
    },
  },
  ({ file, focus }) => ({ messages: [{ role: "user", content: { type: "text", text: `Review ${file}${focus === undefined ? "" : ` for ${focus}`}.` } }] }),
);
server.registerResource(
  "greeting",
  new ResourceTemplate("greeting://{name}", { list: undefined, complete: { name: (value) => NAMES.filter((name) => name.startsWith(value)) } }),
  { title: "Greeting" },
  async (uri, { name }) => ({ contents: [{ uri: uri.href, text: `Hello, ${String(name)}!` }] }),
);

await server.connect(new StdioServerTransport());
