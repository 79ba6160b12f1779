import { afterEach, describe, expect, it } from "vitest";
import type { ToolContext } from "../kernel/index.js";
import type { InputAskContext, InputResponder } from "./input-required.js";
import type { InputRequest } from "./input-request.js";
import { isJsonObject, type JsonObject } from "./jsonrpc.js";
import { mountServers, type MountDeps, type MountedServers } from "./mount-servers.js";
import { startInputRequiredServer } from "./test-support/input-required-server.js";

const context: ToolContext = { signal: new AbortController().signal };
const SCHEMA = { type: "object", properties: { confirmed: { type: "boolean" } } };
const opened: Array<{ close(): Promise<void> }> = [];

/** A loopback server with one tool, `deploy`, that asks for a confirmation before it completes. */
async function confirmingServer(): Promise<{ url: string; bodies: JsonObject[] }> {
  const server = await startInputRequiredServer({
    tool: { name: "deploy", description: "Deploys", inputSchema: { type: "object" } },
    ask: { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: SCHEMA } } }, requestState: "s1" },
    finish: ({ inputResponses, requestState }) => ({ content: [{ type: "text", text: `deployed with ${JSON.stringify(inputResponses)} and ${String(requestState)}` }] }),
  });
  opened.push(server);
  return { url: server.url, bodies: server.bodies };
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
