// What the tickets endpoint answers, as a value (so the pipeline stays free of Node's response object),
// and the one function that writes it: JSON, an event stream, or 202 with no body.
import type { ServerResponse } from "node:http";
import { failure, httpStatusFor, type RpcError } from "../shared/rpc-error.js";
import type { JsonRpcId, JsonRpcMessage } from "../../src/mcp/index.js";

export type Reply =
  | { readonly kind: "json"; readonly status: number; readonly body: JsonRpcMessage; readonly headers?: Readonly<Record<string, string>> }
  /** One request's messages as SSE, the response among them (not necessarily last). */
  | { readonly kind: "stream"; readonly messages: readonly JsonRpcMessage[] }
  /** An accepted notification. */
  | { readonly kind: "accepted" };

/** A JSON-RPC error reply with the status its code travels with. */
export function errorReply(id: JsonRpcId | null, error: RpcError, status = httpStatusFor(error.code)): Reply {
  return { kind: "json", status, body: failure(id, error) };
}

export function replyStatus(reply: Reply): number {
  switch (reply.kind) {
    case "json":
      return reply.status;
    case "stream":
      return 200;
    case "accepted":
      return 202;
    default: {
      const unreachable: never = reply;
      return unreachable;
    }
  }
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  switch (reply.kind) {
    case "json": {
      const body = JSON.stringify(reply.body);
      res.writeHead(reply.status, { ...reply.headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    case "stream":
      // "Servers SHOULD set X-Accel-Buffering: no on SSE" so proxies pass each event on at once.
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" });
      for (const message of reply.messages) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      res.end();
      return;
    case "accepted":
      res.writeHead(202).end();
      return;
    default: {
      const unreachable: never = reply;
      return unreachable;
    }
  }
}
