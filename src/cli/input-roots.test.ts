import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject, type JsonObject } from "../mcp/index.js";
import { mountServers, type MountedServers } from "../mcp/index.js";
import { startInputRequiredServer } from "../mcp/test-support/input-required-server.js";
import { createCliInputResponder } from "./input-responder.js";

const opened: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

/** A loopback server whose one tool, `where`, asks for the client's roots and echoes what it was given. */
async function rootsServer(): Promise<{ url: string; bodies: JsonObject[] }> {
  const server = await startInputRequiredServer({
    tool: { name: "where", description: "Where am I", inputSchema: { type: "object" } },
    ask: { resultType: "input_required", inputRequests: { dirs: { method: "roots/list" } } },
    finish: ({ inputResponses }) => ({ content: [{ type: "text", text: JSON.stringify(inputResponses) }] }),
  });
  opened.push(server);
  return { url: server.url, bodies: server.bodies };
}

describe("a mounted tool answered by the CLI's input responder", () => {
  it("sends the project folder as the roots, and declares roots on every request", async () => {
    const { url, bodies } = await rootsServer();
    const inputResponder = createCliInputResponder({ interactive: false, projectDir: "/work/demo", notify: () => undefined });
    const mounted: MountedServers = await mountServers(
      { file: "/tmp/mcp.config.json", servers: [{ alias: "fs", transport: "http", url, headers: {}, enabled: true }] },
      { clientVersion: "0.0.0-test", baseEnv: {}, onWarning: () => undefined, inputResponder },
    );
    opened.push(mounted);
    const result = await mounted.tools[0]?.run({}, { signal: new AbortController().signal });
    expect(result).toEqual({ text: JSON.stringify({ dirs: { roots: [{ uri: "file:///work/demo", name: "demo" }] } }), isError: false });
    const declared = bodies.map((body) => (isJsonObject(body.params) && isJsonObject(body.params._meta) ? body.params._meta["io.modelcontextprotocol/clientCapabilities"] : undefined));
    expect(declared).toEqual(bodies.map(() => ({ elicitation: { form: {} }, roots: {} })));
  });
});
