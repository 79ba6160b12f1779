// Shared set-up for the Anthropic model's tests: a model pointed at a fresh fake Messages API whose
// retry waits are recorded instead of slept, and requests that collect what reaches onText.
import type { Message, Model, ModelRequest, ToolSpec } from "../../kernel/index.js";
import { createAnthropicModel } from "../anthropic-model.js";
import type { RetryOptions } from "../anthropic-model.js";
import { type FakeMessagesApi, type FakeReply, startFakeMessagesApi } from "./fake-messages-api.js";

export const MODEL = "claude-test-model";
export const TOOLS: ToolSpec[] = [
  { name: "read_file", description: "Read a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  { name: "bash", description: "Run a command.", inputSchema: { type: "object", properties: { command: { type: "string" } } } },
];
export const HELLO: Message[] = [{ role: "user", content: [{ type: "text", text: "hello" }] }];

export function overloaded(): FakeReply {
  return { kind: "error", status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } };
}

export interface Harness {
  /** A model against a new fake API; `retry` overrides the recorded sleep and 3 retries. */
  setUp(
    replies: readonly FakeReply[],
    retry?: RetryOptions,
  ): Promise<{ api: FakeMessagesApi; model: Model; delays: number[] }>;
  /** Closes every fake API this harness started; call it in afterEach. */
  closeAll(): Promise<void>;
}

export function createHarness(): Harness {
  const started: FakeMessagesApi[] = [];
  return {
    async setUp(replies, retry = {}) {
      const api = await startFakeMessagesApi(replies);
      started.push(api);
      const delays: number[] = [];
      const model = createAnthropicModel({
        apiKey: "test-key",
        baseURL: api.baseURL,
        model: MODEL,
        retry: { maxRetries: 3, sleep: async (delayMs) => void delays.push(delayMs), ...retry },
      });
      return { api, model, delays };
    },
    async closeAll() {
      await Promise.all(started.splice(0).map((api) => api.close()));
    },
  };
}

export function requestFor(messages: readonly Message[], overrides: Partial<ModelRequest> = {}) {
  const texts: string[] = [];
  const request: ModelRequest = {
    system: "You are mca.",
    messages,
    tools: TOOLS,
    signal: new AbortController().signal,
    onText: (delta) => texts.push(delta),
    ...overrides,
  };
  return { request, texts };
}
