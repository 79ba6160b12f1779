// What the hand-written 2026-07-28 stdio servers of the tests share: one JSON-RPC message a line on stdout,
// a complete result, -32601 for a method a server does not serve, and its requests read line by line.
import { createInterface } from "node:readline";

export const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
export const result = (id, body) => send({ jsonrpc: "2.0", id, result: { resultType: "complete", ...body } });
export const methodNotFound = (id, method) => send({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });

/** Hands each request on stdin to `onRequest` (notifications are ignored); at stdin's end, `onEnd`: exit 0 unless given. */
export function serveRequests(onRequest, onEnd = () => process.exit(0)) {
  createInterface({ input: process.stdin })
    .on("line", (line) => {
      if (line.trim() === "") return;
      const message = JSON.parse(line);
      if (message.id !== undefined && message.method !== undefined) onRequest(message);
    })
    .on("close", onEnd);
}
