// A 2026-07-28 server built with the official TypeScript server SDK v2 (@modelcontextprotocol/server 2.4.0)
// whose tools change at run time: `enable_extra` adds `add_tag` and removes `old_tool`, and the change is
// reported on the client's subscriptions/listen stream — over stdio by the connection's own instance,
// over HTTP (a fresh instance per request) from the state all instances read.
import { McpServer, type ServerNotifier } from "@modelcontextprotocol/server";
import * as z from "zod";
import { startFixtureHttpServer } from "./sdk-v2-fixture.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** One instance; `enabled` says whether enable_extra was called already; `enable` applies the change. */
export function createChangingServer(enabled: boolean, enable: (server: McpServer, swap: () => void) => void): McpServer {
  const server = new McpServer({ name: "changing-v2", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const addTag = (): void => {
    server.registerTool("add_tag", { description: "Tags something.", inputSchema: z.object({ tag: z.string() }) }, async ({ tag }) => text(`tagged ${tag}`));
  };
  server.registerTool("status", { description: "Says the server is up.", inputSchema: z.object({}) }, async () => text("up"));
  const oldTool = enabled ? undefined : server.registerTool("old_tool", { description: "Offered until enable_extra is called.", inputSchema: z.object({}) }, async () => text("old"));
  if (enabled) addTag();
  server.registerTool("enable_extra", { description: "Adds add_tag and removes old_tool.", inputSchema: z.object({}) }, async () => {
    enable(server, () => {
      addTag();
      oldTool?.remove();
    });
    return text("enabled");
  });
  return server;
}

/** Over HTTP every request has its own instance: the change lives in a flag, and the handler tells the listen streams. */
export async function startChangingHttpServer(): Promise<{ url: string; close(): Promise<void> }> {
  let enabled = false;
  let notify: ServerNotifier | undefined;
  const started = await startFixtureHttpServer(() =>
    createChangingServer(enabled, () => {
      enabled = true;
      notify?.toolsChanged();
    }),
  );
  notify = started.notify;
  return started;
}
