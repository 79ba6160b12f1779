import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../kernel/tool.js";
import type { InputAskContext, InputResponder } from "./input-required.js";
import type { InputRequest } from "./input-request.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import { mountServers, type MountDeps, type MountedServers } from "./mount-servers.js";

const context: ToolContext = { signal: new AbortController().signal };
const SCHEMA = { type: "object", properties: { confirmed: { type: "boolean" } } };
const opened: Array<{ close(): Promise<void> }> = [];

/** A loopback server with one tool, `deploy`, that asks for a confirmation before it completes. */
async function confirmingServer(): Promise<{ url: string; bodies: JsonObject[] }> {
  const bodies: JsonObject[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const body: unknown = JSON.parse(text);
      if (!isJsonObject(body) || !isJsonObject(body.params)) throw new Error("the client sent no params");
      bodies.push(body);
      const { inputResponses, requestState } = body.params;
      const results: Record<string, JsonObject> = {
        "server/discover": { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" },
        "tools/list": { tools: [{ name: "deploy", description: "Deploys", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "private" },
        "tools/call":
          inputResponses === undefined
            ? { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: SCHEMA } } }, requestState: "s1" }
            : { content: [{ type: "text", text: `deployed with ${JSON.stringify(inputResponses)} and ${String(requestState)}` }] },
      };
      const result = typeof body.method === "string" ? results[body.method] : undefined;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", ...result } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the test server has no port");
  return { url: `http://127.0.0.1:${address.port}/mcp`, bodies };
}

async function mountWith(url: string, inputResponder?: InputResponder): Promise<MountedServers> {
  const deps: MountDeps = { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined, ...(inputResponder ? { inputResponder } : {}) };
  const mounted = await mountServers({ file: "/tmp/mcp.config.json", servers: [{ alias: "ops", transport: "http", url, headers: {}, enabled: true }] }, deps);
  opened.push(mounted);
  return mounted;
}

function capabilitiesSent(bodies: readonly JsonObject[]): unknown[] {
  return bodies.map((body) => (isJsonObject(body.params) && isJsonObject(body.params._meta) ? body.params._meta["io.modelcontextprotocol/clientCapabilities"] : undefined));
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

describe("a mounted tool with an input responder", () => {
  it("answers the server's request, retries, and returns the finished result", async () => {
    const { url, bodies } = await confirmingServer();
    const asked: Array<{ requests: Record<string, InputRequest>; context: InputAskContext & { server: string } }> = [];
    const mounted = await mountWith(url, {
      support: { elicitationForm: true },
      answer: async (requests, askContext) => {
        asked.push({ requests, context: { ...askContext, signal: undefined } });
        return { confirm: { action: "accept", content: { confirmed: true } } };
      },
    });
    const result = await mounted.tools[0]?.run({}, context);
    expect(result).toEqual({ text: 'deployed with {"confirm":{"action":"accept","content":{"confirmed":true}}} and s1', isError: false });
    expect(asked).toEqual([
      {
        requests: { confirm: { kind: "elicit-form", message: "Sure?", requestedSchema: SCHEMA, params: { message: "Sure?", requestedSchema: SCHEMA } } },
        context: { tool: "deploy", round: 1, server: "ops", signal: undefined },
      },
    ]);
    expect(capabilitiesSent(bodies)).toEqual([1, 2, 3, 4].map(() => ({ elicitation: { form: {} } })));
  });

  it("ends with a failed result naming the server when the answer is declined", async () => {
    const { url, bodies } = await confirmingServer();
    const mounted = await mountWith(url, { support: { elicitationForm: true }, answer: async () => ({ abandon: "the user said no" }) });
    const result = await mounted.tools[0]?.run({}, context);
    expect(result).toEqual({ text: 'MCP server "ops": tools/call deploy: the input the server asked for was not given: the user said no', isError: true });
    expect(bodies.map((body) => body.method)).toEqual(["server/discover", "tools/list", "tools/call"]);
  });
});

describe("a mounted tool without an input responder", () => {
  it("declares no capability and reports what the server still needs", async () => {
    const { url, bodies } = await confirmingServer();
    const mounted = await mountWith(url);
    const result = await mounted.tools[0]?.run({}, context);
    expect(result).toEqual({
      text: 'The call did not finish: MCP server "ops" needs more input before "deploy" can complete, and it was not provided.\nIt asked for:\n- confirm: elicitation/create: Sure?',
      isError: true,
    });
    expect(capabilitiesSent(bodies)).toEqual([{}, {}, {}]);
  });
});
