// A 2026-07-28 server over stdio built with the official TypeScript server SDK v2 (@modelcontextprotocol/server
// 2.4.0) whose prompts carry what server-everything's do not: an image, a conversation of both roles, and a
// prompt added at run time by the tool `add_prompt`, which the SDK reports on the client's listen stream.
// Run as `node --import tsx prompting-v2-stdio-main.ts`; it ends when stdin closes.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

/** A 2×3 PNG as far as an image check reads one: the signature and the IHDR chunk. */
const PROMPT_PNG_BASE64 = Buffer.from([
  ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  ...[0, 0, 0, 13],
  ...[0x49, 0x48, 0x44, 0x52],
  ...[0, 0, 0, 2],
  ...[0, 0, 0, 3],
  ...[8, 6, 0, 0, 0, 0, 0, 0, 0],
]).toString("base64");

function createPromptingServer(): McpServer {
  const server = new McpServer({ name: "prompting-v2", version: "1.0.0" }, { capabilities: { prompts: { listChanged: true }, tools: {} } });
  server.registerPrompt("describe_logo", { description: "Asks what a logo shows" }, () => ({
    messages: [
      { role: "user", content: { type: "text", text: "What does this logo show?" } },
      { role: "user", content: { type: "image", data: PROMPT_PNG_BASE64, mimeType: "image/png" } },
    ],
  }));
  server.registerPrompt(
    "review",
    { description: "Continues a review of one file", argsSchema: z.object({ file: z.string(), focus: z.string().optional() }) },
    ({ file, focus }) => ({
      messages: [
        { role: "user", content: { type: "text", text: `Review ${file}${focus === undefined ? "" : ` for ${focus}`}.` } },
        { role: "assistant", content: { type: "text", text: "Which part first?" } },
        { role: "user", content: { type: "text", text: "The exported functions." } },
      ],
    }),
  );
  server.registerTool("add_prompt", { description: "Adds the prompt `later`.", inputSchema: z.object({}) }, async () => {
    server.registerPrompt("later", { description: "Added at run time" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "Added later." } }] }));
    return { content: [{ type: "text", text: "added" }] };
  });
  return server;
}

serveStdio(() => createPromptingServer());
