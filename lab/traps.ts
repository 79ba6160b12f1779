// The six instinctive versions of the lab, each swapped into the self-test through its seams: they work
// on small data and fail quietly on real data. Each names the assertion that must catch it.
import type { Tool } from "../src/kernel/index.js";
import type { JsonRpcMessage } from "../src/mcp/index.js";
import type { LineFramer } from "../src/mcp/index.js";
import type { McpServerConfig, Transport, TransportHandlers } from "../src/mcp/index.js";
import type { SelfTestSeams } from "../src/selftest/index.js";

export interface Trap {
  readonly name: string;
  readonly instinct: string;
  /** The self-test assertion that exists to catch this trap. */
  readonly caughtBy: string;
  readonly seams: SelfTestSeams;
}

/** Trap 1: each chunk split on newlines, as if a chunk were always whole lines. */
function splitEachChunk(): LineFramer {
  return {
    push: (chunk) => chunk.toString("utf8").split("\n").filter((line) => line !== ""),
    end: () => [],
  };
}

/** Lets `onMessage` be rewritten and `send` be observed; label and close are the transport's own. */
function intercept(
  transport: Transport,
  hooks: { incoming?: (message: JsonRpcMessage, deliver: (message: JsonRpcMessage) => void) => void; outgoing?: (message: JsonRpcMessage) => JsonRpcMessage },
): Transport {
  return {
    label: transport.label,
    cancellation: transport.cancellation,
    start: (handlers: TransportHandlers) =>
      transport.start({
        ...handlers,
        onMessage: (message) => (hooks.incoming ? hooks.incoming(message, handlers.onMessage) : handlers.onMessage(message)),
      }),
    send: (message, signal) => transport.send(hooks.outgoing ? hooks.outgoing(message) : message, signal),
    close: () => transport.close(),
  };
}

/** Trap 2: the first page of a list is taken as the whole list. */
function firstPageOnly(transport: Transport): Transport {
  return intercept(transport, {
    incoming: (message, deliver) => {
      if ("result" in message && "nextCursor" in message.result) {
        const { nextCursor: _ignored, ...rest } = message.result;
        return deliver({ ...message, result: rest });
      }
      deliver(message);
    },
  });
}

/** How long the instinctive reader waits for "the end of the stream" after the exchange has answered. */
const STREAM_QUIET_MS = 300;

/** Trap 3: everything an event stream carries is read to its end, and the last message is the answer. */
function lastMessageIsTheResponse(transport: Transport, spec: McpServerConfig): Transport {
  if (spec.transport !== "http") return transport;
  let seen: JsonRpcMessage[] = [];
  let deliverLater: ((message: JsonRpcMessage) => void) | undefined;
  return {
    ...intercept(transport, {
      incoming: (message, deliver) => {
        deliverLater = deliver;
        seen.push(message);
      },
    }),
    send: async (message, signal) => {
      seen = [];
      await transport.send(message, signal);
      if (!("method" in message) || !("id" in message)) return;
      await new Promise((resolve) => setTimeout(resolve, STREAM_QUIET_MS));
      const last = seen.at(-1);
      for (const earlier of seen.slice(0, -1)) if (!("id" in earlier)) deliverLater?.(earlier);
      if (last === undefined) return;
      const answer = "result" in last ? last.result : "params" in last ? (last.params ?? {}) : {};
      deliverLater?.({ jsonrpc: "2.0", id: message.id, result: answer });
    },
  };
}

/** Trap 4: a tool that says it only reads is believed, and mounted as a reading tool. */
function believeReadOnly(tools: readonly Tool[]): readonly Tool[] {
  return tools.map((tool) => (tool.kind === "remote" && tool.annotations?.readOnlyHint === true ? { ...tool, kind: "read" } : tool));
}

/** Trap 5: the name the model used is sent to the server as it is. */
function sendNamespacedName(transport: Transport): Transport {
  return intercept(transport, {
    outgoing: (message) => {
      if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) return message;
      const name = String(message.params.name);
      return { ...message, params: { ...message.params, name: `mcp__${transport.label}__${name}` } };
    },
  });
}

/** Trap 6: the server and tool are found again by splitting the flat name the model used on `__`. */
function splitNamespacedName(tools: readonly Tool[]): readonly Tool[] {
  const byServerAndName = new Map(tools.map((tool) => [`${tool.source}/${tool.originalName}`, tool]));
  return tools.map((tool) => {
    if (!tool.name.startsWith("mcp__")) return tool;
    const [, server, name] = tool.name.split("__");
    const target = byServerAndName.get(`${server}/${name}`);
    const run: Tool["run"] = target ? (args, context) => target.run(args, context) : async () => ({ text: `unknown tool: ${tool.name}`, isError: true });
    return { ...tool, run };
  });
}

export const TRAPS: readonly Trap[] = [
  { name: "split-chunks", instinct: "frame stdio by splitting each chunk on newlines", caughtBy: "framing", seams: { transport: { createFramer: splitEachChunk } } },
  { name: "first-page", instinct: "take the first page of tools/list as the whole list", caughtBy: "pagination", seams: { transport: { wrapTransport: firstPageOnly } } },
  { name: "last-message", instinct: "treat the last message of an event stream as the response", caughtBy: "sse-correlation", seams: { transport: { wrapTransport: lastMessageIsTheResponse } } },
  { name: "trust-read-only", instinct: "believe a tool's self-declared read-only flag", caughtBy: "read-only-untrusted", seams: { adaptTools: believeReadOnly } },
  { name: "namespaced-name", instinct: "send the namespaced name back to the server", caughtBy: "original-name", seams: { transport: { wrapTransport: sendNamespacedName } } },
  { name: "split-name", instinct: "split the namespaced name to find the server", caughtBy: "namespace", seams: { adaptTools: splitNamespacedName } },
];

/** Every trap at once: the framer of the first, the transport wrappers chained, the tool adapters chained. */
export function allTraps(): SelfTestSeams {
  const wrappers = TRAPS.flatMap((trap) => (trap.seams.transport?.wrapTransport ? [trap.seams.transport.wrapTransport] : []));
  const adapters = TRAPS.flatMap((trap) => (trap.seams.adaptTools ? [trap.seams.adaptTools] : []));
  return {
    transport: {
      createFramer: splitEachChunk,
      wrapTransport: (transport, spec) => wrappers.reduce((wrapped, wrap) => wrap(wrapped, spec), transport),
    },
    adaptTools: (tools) => adapters.reduce((adapted, adapt) => adapt(adapted), tools),
  };
}
