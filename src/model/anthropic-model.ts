// The Claude model over the Anthropic Messages API: streaming, prompt caching, one retry policy.
// The SDK is imported lazily on the first request, so start-up and the mock path never load it.
import type * as Sdk from "@anthropic-ai/sdk";
import type { Model, ModelReply, ModelRequest } from "../kernel/index.js";
import { toApiMessages, toApiSystem, toApiTools } from "./anthropic-messages.js";
import { createReplyAssembler } from "./anthropic-reply.js";
import {
  abortableSleep,
  classifyFailure,
  type Failure,
  maxRetries,
  type RetryOptions,
  retryDelayMs,
} from "./anthropic-retry.js";

export const DEFAULT_MODEL = "claude-sonnet-5-5";
const DEFAULT_BASE_URL = "https://api.anthropic.com";
const DEFAULT_MAX_TOKENS = 16_384;
/** Per attempt, from sending the request to the end of the streamed reply. */
const REQUEST_TIMEOUT_MS = 600_000;

export interface AnthropicModelOptions {
  readonly apiKey: string;
  /** `ANTHROPIC_BASE_URL`, passed by the CLI; the SDK is never left to read the environment for it. */
  readonly baseURL?: string;
  readonly model: string;
  readonly maxTokens?: number;
  readonly retry?: RetryOptions;
}

interface Connection {
  readonly sdk: typeof Sdk;
  readonly client: Sdk.Anthropic;
}

type Attempt =
  | { readonly kind: "reply"; readonly reply: ModelReply }
  /** `failure` undefined: the caller aborted. */
  | { readonly kind: "failed"; readonly failure: Failure | undefined; readonly forwardedText: boolean };

export function createAnthropicModel(options: AnthropicModelOptions): Model {
  let connection: Promise<Connection> | undefined;
  const connect = (): Promise<Connection> => {
    connection ??= import("@anthropic-ai/sdk").then((sdk) => ({
      sdk,
      client: new sdk.Anthropic({
        apiKey: options.apiKey,
        baseURL: options.baseURL ?? DEFAULT_BASE_URL,
        maxRetries: 0,
        timeout: REQUEST_TIMEOUT_MS,
      }),
    }));
    return connection;
  };
  const retry = options.retry ?? {};
  const sleep = retry.sleep ?? abortableSleep;

  return {
    name: options.model,
    async complete(request) {
      const { sdk, client } = await connect();
      for (let retriesDone = 0; ; retriesDone += 1) {
        request.signal.throwIfAborted();
        const attempt = await attemptOnce(sdk, client, options, request);
        if (attempt.kind === "reply") return attempt.reply;
        request.signal.throwIfAborted();
        const { failure, forwardedText } = attempt;
        if (failure === undefined) throw new Error("Anthropic API: request aborted");
        // Text already shown to the user cannot be taken back, so a broken reply is not retried.
        if (!failure.retryable || forwardedText || retriesDone === maxRetries(retry)) {
          throw new Error(failureMessage(failure, retriesDone, forwardedText));
        }
        await sleep(retryDelayMs(retriesDone + 1, failure, retry), request.signal);
      }
    },
  };
}

async function attemptOnce(
  sdk: typeof Sdk,
  client: Sdk.Anthropic,
  options: AnthropicModelOptions,
  request: ModelRequest,
): Promise<Attempt> {
  const assembler = createReplyAssembler(request.onText);
  try {
    const stream = await client.messages.create(
      {
        model: options.model,
        max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
        system: toApiSystem(request.system),
        messages: toApiMessages(request.messages),
        ...(request.tools.length > 0 ? { tools: toApiTools(request.tools) } : {}),
        stream: true,
      },
      { signal: request.signal },
    );
    // The SDK ends this loop quietly (no throw) when the signal aborts it mid-stream.
    for await (const event of stream) assembler.accept(event);
  } catch (error) {
    return { kind: "failed", failure: classifyFailure(error, sdk), forwardedText: assembler.forwardedText };
  }
  const reply = assembler.finish();
  if (!("problem" in reply)) return { kind: "reply", reply };
  const failure: Failure =
    reply.problem === "incomplete"
      ? { retryable: true, label: "broken stream", detail: reply.message }
      : { retryable: false, label: "malformed reply", detail: reply.message };
  return { kind: "failed", failure, forwardedText: assembler.forwardedText };
}

function failureMessage(failure: Failure, retriesDone: number, forwardedText: boolean): string {
  const when = forwardedText
    ? " in the middle of the reply"
    : failure.retryable
      ? ` after ${retriesDone} ${retriesDone === 1 ? "retry" : "retries"}`
      : "";
  return `Anthropic API: ${failure.label}${when}: ${failure.detail}`;
}
