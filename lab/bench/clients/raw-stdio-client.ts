// The raw stdio anchor client: spawn, write one line per request, frame stdout by scanning only new bytes
// and joining a line once, JSON.parse, match the id. No validation, no timeouts: the floor for a client.
import { spawn } from "node:child_process";
import { PAYLOAD_TOOL } from "../servers/answers.js";
import { textLength, type BenchClient, type Endpoint } from "./bench-client.js";
import { countAllTools, requestLine, resultOf } from "./request-meta.js";

type Waiter = { readonly resolve: (result: Record<string, unknown>) => void; readonly reject: (error: Error) => void };

const NEWLINE = 0x0a;

export async function connectRawStdio(endpoint: Extract<Endpoint, { kind: "stdio" }>): Promise<BenchClient> {
  const child = spawn(endpoint.command, [...endpoint.args], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map<number, Waiter>();
  let nextId = 1;
  let parts: Buffer[] = [];

  function onLine(line: Buffer): void {
    const message: unknown = JSON.parse(line.toString("utf8"));
    if (typeof message !== "object" || message === null || !("id" in message) || typeof message.id !== "number") return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    const result = resultOf(message);
    if (result instanceof Error) waiter?.reject(result);
    else waiter?.resolve(result);
  }

  child.stdout.on("data", (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const tail = chunk.subarray(start, newline);
      onLine(parts.length === 0 ? tail : Buffer.concat([...parts, tail]));
      parts = [];
      start = newline + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", () => {
    for (const waiter of pending.values()) waiter.reject(new Error("the server exited"));
    pending.clear();
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });

  function request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child.stdin.write(`${requestLine(id, method, params)}\n`);
    });
  }

  return {
    call: async (bytes) => textLength((await request("tools/call", { name: PAYLOAD_TOOL, arguments: { bytes } })).content),
    listTools: () => countAllTools((params) => request("tools/list", params)),
    async close() {
      child.stdin.end();
      const killTimer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(killTimer);
    },
  };
}
