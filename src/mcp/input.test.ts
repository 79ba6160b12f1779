import { describe, expect, it } from "vitest";
import type { McpClient } from "./client.js";
import {
  callToolToCompletion,
  clientCapabilities,
  parseInputRequests,
  withFormDefaults,
  type CallTool,
  type InputAnswer,
  type InputRequest,
} from "./input.js";
import { McpError, type JsonObject, type JsonRpcRequest } from "./jsonrpc.js";
import { createModernClient } from "./modern-client.js";
import { createInMemoryTransport, type InMemoryTransport, type ScriptedReply } from "./test-support/in-memory-transport.js";
import { createWire } from "./wire.js";

const SCHEMA = { type: "object", properties: { login: { type: "string" } }, required: ["login"] };

/** One request parsed under the key "k", as parseInputRequests reads every entry of `inputRequests`. */
function parseOne(request: unknown): unknown {
  const parsed = parseInputRequests({ k: request });
  return parsed instanceof Error ? parsed : parsed.k;
}

describe("parseInputRequests, one request at a time", () => {
  it("reads an elicitation without a mode as a form", () => {
    const params = { message: "Your login?", requestedSchema: SCHEMA };
    expect(parseOne({ method: "elicitation/create", params })).toEqual({ kind: "elicit-form", message: "Your login?", requestedSchema: SCHEMA, params });
  });

  it("reads a URL elicitation", () => {
    const params = { mode: "url", message: "Sign in", url: "https://example.com/auth" };
    expect(parseOne({ method: "elicitation/create", params })).toEqual({ kind: "elicit-url", message: "Sign in", url: "https://example.com/auth", params });
  });

  it("reads a sampling request and whether it offers tools", () => {
    const messages = [{ role: "user", content: { type: "text", text: "Summarise X" } }];
    expect(parseOne({ method: "sampling/createMessage", params: { messages, maxTokens: 200 } })).toEqual({
      kind: "sampling",
      messages,
      maxTokens: 200,
      usesTools: false,
      params: { messages, maxTokens: 200 },
    });
    const withTools = { messages, maxTokens: 200, tools: [{ name: "t", inputSchema: { type: "object" } }] };
    expect(parseOne({ method: "sampling/createMessage", params: withTools })).toMatchObject({ kind: "sampling", usesTools: true });
  });

  it("reads a roots request without params", () => {
    expect(parseOne({ method: "roots/list" })).toEqual({ kind: "roots", params: {} });
  });

  it("names what is wrong with a malformed request", () => {
    expect(parseOne({ method: "elicitation/create", params: { message: "m" } })).toEqual(
      new Error('input request "k": elicitation/create: `requestedSchema` is not an object'),
    );
    expect(parseOne({ method: "elicitation/create", params: { mode: "voice", message: "m" } })).toEqual(
      new Error('input request "k": elicitation/create: unknown mode "voice"'),
    );
    expect(parseOne({ method: "sampling/createMessage", params: { messages: [] } })).toEqual(
      new Error('input request "k": sampling/createMessage: `maxTokens` is not an integer'),
    );
    expect(parseOne({ method: "roots/list", params: [] })).toEqual(new Error('input request "k": an input request\'s `params` is not an object'));
  });
});

describe("parseInputRequests", () => {
  it("names the key of the first invalid request", () => {
    expect(parseInputRequests({ ok: { method: "roots/list" }, bad: { method: "tools/list" } })).toEqual(
      new Error('input request "bad": unknown input request method "tools/list"'),
    );
  });
});

describe("clientCapabilities", () => {
  it("declares nothing for a client that answers nothing", () => {
    expect(clientCapabilities()).toEqual({});
  });

  it("declares each supported kind as an object", () => {
    expect(clientCapabilities({ elicitationForm: true, elicitationUrl: true, sampling: true, roots: true })).toEqual({
      elicitation: { form: {}, url: {} },
      roots: {},
      sampling: {},
    });
  });

  it("declares only the elicitation modes supported", () => {
    expect(clientCapabilities({ elicitationForm: true })).toEqual({ elicitation: { form: {} } });
  });
});

const FORM = { type: "object", properties: { confirmed: { type: "boolean" } } };
const confirmRequest = { method: "elicitation/create", params: { message: "Sure?", requestedSchema: FORM } };
const accepted = { confirm: { action: "accept", content: { confirmed: true } } };
const done = (text: string): ScriptedReply => ({ result: { resultType: "complete", content: [{ type: "text", text }] } });
const inputRequired = (fields: JsonObject): ScriptedReply => ({ result: { resultType: "input_required", ...fields } });

async function startClient(answer: (request: JsonRpcRequest) => ScriptedReply): Promise<{ client: McpClient; transport: InMemoryTransport }> {
  const transport = createInMemoryTransport({ label: "srv", answer });
  const wire = createWire({ transport, clientVersion: "1.0.0" });
  await wire.start();
  return { client: createModernClient(wire), transport };
}

/** The params of every tools/call sent, without `_meta`, with the request's id. */
function calls(transport: InMemoryTransport): JsonObject[] {
  return transport
    .requests()
    .filter((request) => request.method === "tools/call")
    .map(({ id, params: { _meta, ...params } }) => ({ id, ...params }));
}

const answering =
  (responses: Record<string, unknown>, seen: Array<Record<string, InputRequest>> = []): InputAnswer =>
  async (requests) => {
    seen.push(requests);
    return responses;
  };

describe("withFormDefaults (SEP-1034)", () => {
  const form: InputRequest = {
    kind: "elicit-form",
    message: "Who?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        score: { type: "number", default: 95.5 },
        status: { type: "string", enum: ["active", "pending"], default: "active" },
        verified: { type: "boolean", default: true },
        tags: { type: "array", items: { type: "string" }, default: ["a"] },
        odd: { type: "string", default: { nested: true } },
        note: { type: "string" },
      },
    },
    params: {},
  };

  it("fills in each field the person left out with its default, keeping what they gave", () => {
    expect(withFormDefaults(form, { action: "accept", content: { name: "Ada", verified: false } })).toEqual({
      action: "accept",
      content: { name: "Ada", age: 30, score: 95.5, status: "active", verified: false, tags: ["a"] },
    });
  });

  it("leaves a declined answer, and any other kind of request, as it is", () => {
    expect(withFormDefaults(form, { action: "decline" })).toEqual({ action: "decline" });
    expect(withFormDefaults({ kind: "roots", params: {} }, { roots: [] })).toEqual({ roots: [] });
  });

  it("is applied to the answers of a retried call", async () => {
    const { client, transport } = await startClient((request) =>
      request.params.inputResponses === undefined ? inputRequired({ inputRequests: { who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: form.requestedSchema } } } }) : done("ok"),
    );
    await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: async () => ({ who: { action: "accept", content: {} } }) });
    expect(calls(transport)[1]?.inputResponses).toEqual({
      who: { action: "accept", content: { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, tags: ["a"] } },
    });
  });
});

describe("callToolToCompletion", () => {
  it("answers every round and retries under a new id until the result is complete", async () => {
    const { client, transport } = await startClient((request) => {
      const state = request.params.requestState;
      if (state === undefined) return inputRequired({ inputRequests: { confirm: confirmRequest }, requestState: "r1" });
      if (state === "r1") return inputRequired({ inputRequests: { dirs: { method: "roots/list" } }, requestState: "r2" });
      return done("deployed");
    });
    let round = 0;
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "deploy", { env: "prod" }, {
      answer: async (requests, context) => {
        round = context.round;
        return "confirm" in requests ? accepted : { dirs: { roots: [{ uri: "file:///work" }] } };
      },
    });
    expect(outcome).toEqual({ kind: "complete", content: [{ type: "text", text: "deployed" }], isError: false });
    expect(round).toBe(2);
    expect(calls(transport)).toEqual([
      { id: 1, name: "deploy", arguments: { env: "prod" } },
      { id: 2, name: "deploy", arguments: { env: "prod" }, inputResponses: accepted, requestState: "r1" },
      { id: 3, name: "deploy", arguments: { env: "prod" }, inputResponses: { dirs: { roots: [{ uri: "file:///work" }] } }, requestState: "r2" },
    ]);
  });

  it("hands the answer the requests parsed into their kinds", async () => {
    const { client } = await startClient((request) =>
      request.params.inputResponses === undefined ? inputRequired({ inputRequests: { confirm: confirmRequest } }) : done("ok"),
    );
    const seen: Array<Record<string, InputRequest>> = [];
    await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering(accepted, seen) });
    expect(seen).toEqual([{ confirm: { kind: "elicit-form", message: "Sure?", requestedSchema: FORM, params: confirmRequest.params } }]);
  });

  it("echoes the request state byte for byte", async () => {
    const state = ' {"nonce": "n\\u00e9", "a":1}\u2028 ';
    const { client, transport } = await startClient((request) =>
      request.params.inputResponses === undefined ? inputRequired({ inputRequests: { confirm: confirmRequest }, requestState: state }) : done("ok"),
    );
    await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering(accepted) });
    expect(calls(transport)[1]?.requestState).toBe(state);
  });

  it("sends no request state when the server sent none", async () => {
    const { client, transport } = await startClient((request) =>
      request.params.inputResponses === undefined ? inputRequired({ inputRequests: { confirm: confirmRequest } }) : done("ok"),
    );
    await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering(accepted) });
    expect(calls(transport)).toEqual([
      { id: 1, name: "t", arguments: {} },
      { id: 2, name: "t", arguments: {}, inputResponses: accepted },
    ]);
  });

  it("retries at once with only the state when the server asks for no input", async () => {
    const { client, transport } = await startClient((request) =>
      request.params.requestState === undefined ? inputRequired({ requestState: "busy" }) : done("ok"),
    );
    const seen: Array<Record<string, InputRequest>> = [];
    await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering({}, seen) });
    expect(seen).toEqual([]);
    expect(calls(transport)).toEqual([
      { id: 1, name: "t", arguments: {} },
      { id: 2, name: "t", arguments: {}, requestState: "busy" },
    ]);
  });

  it("gives up with an error once the server has asked more than maxRounds times", async () => {
    const { client, transport } = await startClient(() => inputRequired({ inputRequests: { confirm: confirmRequest }, requestState: "again" }));
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering(accepted), maxRounds: 3 });
    expect(outcome).toEqual(new McpError("protocol", "tools/call t: the server still asked for input after 3 rounds; giving up"));
    expect(calls(transport)).toHaveLength(4);
  });

  it("never puts the answers on an unrelated call made while they are being gathered", async () => {
    const { client, transport } = await startClient((request) => {
      if (request.params.name === "other") return done("other");
      return request.params.inputResponses === undefined ? inputRequired({ inputRequests: { confirm: confirmRequest }, requestState: "s" }) : done("ok");
    });
    const call: CallTool = (...a) => client.callTool(...a);
    const outcome = await callToolToCompletion(call, "t", {}, {
      answer: async () => {
        await callToolToCompletion(call, "other", { x: 1 }, { answer: answering({}) });
        return accepted;
      },
    });
    expect(outcome).toMatchObject({ kind: "complete" });
    expect(calls(transport)).toEqual([
      { id: 1, name: "t", arguments: {} },
      { id: 2, name: "other", arguments: { x: 1 } },
      { id: 3, name: "t", arguments: {}, inputResponses: accepted, requestState: "s" },
    ]);
  });

  it("keeps the answers and state of two calls in flight together each on its own retry", async () => {
    const { client, transport } = await startClient((request) => {
      const name = String(request.params.name);
      return request.params.inputResponses === undefined
        ? inputRequired({ inputRequests: { confirm: confirmRequest }, requestState: `state-of-${name}` })
        : done(name);
    });
    const call: CallTool = (...a) => client.callTool(...a);
    const answerFor = (name: string): InputAnswer => async () => ({ confirm: { action: "accept", content: { from: name } } });
    await Promise.all(["a", "b"].map((name) => callToolToCompletion(call, name, {}, { answer: answerFor(name) })));
    const retries = calls(transport).filter((params) => params.inputResponses !== undefined);
    expect(retries.map(({ name, inputResponses, requestState }) => ({ name, inputResponses, requestState })).sort((x, y) => String(x.name).localeCompare(String(y.name)))).toEqual([
      { name: "a", inputResponses: { confirm: { action: "accept", content: { from: "a" } } }, requestState: "state-of-a" },
      { name: "b", inputResponses: { confirm: { action: "accept", content: { from: "b" } } }, requestState: "state-of-b" },
    ]);
  });

  it("does not retry when the answer abandons the call", async () => {
    const { client, transport } = await startClient(() => inputRequired({ inputRequests: { confirm: confirmRequest } }));
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: async () => ({ abandon: "the user declined" }) });
    expect(outcome).toEqual(new McpError("aborted", "tools/call t: the input the server asked for was not given: the user declined"));
    expect(calls(transport)).toHaveLength(1);
  });

  it("does not retry when the call is aborted while its answers are gathered", async () => {
    const { client, transport } = await startClient(() => inputRequired({ inputRequests: { confirm: confirmRequest } }));
    const controller = new AbortController();
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "t", {}, {
      signal: controller.signal,
      answer: async () => {
        controller.abort();
        return accepted;
      },
    });
    expect(outcome).toEqual(new McpError("aborted", "tools/call t was aborted while its input was being gathered"));
    expect(calls(transport)).toHaveLength(1);
  });

  it("refuses a kind of request the client did not declare, without asking", async () => {
    const { client } = await startClient(() => inputRequired({ inputRequests: { llm: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } } } }));
    const seen: Array<Record<string, InputRequest>> = [];
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "t", {}, {
      answer: answering({}, seen),
      support: { elicitationForm: true },
    });
    expect(outcome).toEqual(new McpError("protocol", 'tools/call t: the server asked ("llm") for sampling, and mca did not declare sampling'));
    expect(seen).toEqual([]);
  });

  it("refuses a URL elicitation and tool-enabled sampling the client did not declare, naming the capability", async () => {
    const url = { method: "elicitation/create", params: { mode: "url", message: "m", url: "https://x" } };
    const sampling = { method: "sampling/createMessage", params: { messages: [], maxTokens: 1, tools: [{ name: "t" }] } };
    const refusal = async (request: unknown, support: { elicitationForm?: boolean; sampling?: boolean }) => {
      const { client } = await startClient(() => inputRequired({ inputRequests: { x: request } }));
      return callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering({}), support });
    };
    expect([await refusal(url, { elicitationForm: true }), await refusal(sampling, { sampling: true })]).toEqual([
      new McpError("protocol", 'tools/call t: the server asked ("x") for a URL elicitation, and mca did not declare elicitation.url'),
      new McpError("protocol", 'tools/call t: the server asked ("x") for sampling with tools, and mca did not declare sampling.tools'),
    ]);
  });

  it("lets a declared kind of request through to the answer", async () => {
    const { client } = await startClient((request) =>
      request.params.inputResponses === undefined ? inputRequired({ inputRequests: { confirm: confirmRequest } }) : done("ok"),
    );
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering(accepted), support: { elicitationForm: true } });
    expect(outcome).toMatchObject({ kind: "complete" });
  });

  it("reports a malformed input request", async () => {
    const { client } = await startClient(() => inputRequired({ inputRequests: { x: { method: "ping" } } }));
    const outcome = await callToolToCompletion((...a) => client.callTool(...a), "t", {}, { answer: answering({}) });
    expect(outcome).toEqual(new McpError("protocol", 'tools/call t: input request "x": unknown input request method "ping"'));
  });

  it("returns a failure the call returns as it is", async () => {
    const failure = new McpError("unavailable", "disconnected: gone", { server: "srv" });
    const outcome = await callToolToCompletion(async () => failure, "t", {}, { answer: answering({}) });
    expect(outcome).toBe(failure);
  });
});
