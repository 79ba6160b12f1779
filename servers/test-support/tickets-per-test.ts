// A fresh tickets server for each test of a describe block (so every test starts from the same tickets),
// closed after it; `post` sends it one JSON-RPC body with exactly the headers given.
import type { OutgoingHttpHeaders } from "node:http";
import { afterEach, beforeEach } from "vitest";
import { startTicketsServer, type TicketsServer } from "../tickets.js";
import { postJson } from "./raw-http.js";

export interface TicketsPerTest {
  /** The current test's server; only inside a test. */
  server(): TicketsServer;
  post(body: unknown, headers: OutgoingHttpHeaders): Promise<{ status: number; body: unknown }>;
}

/** Registers the beforeEach that starts the server on a free port and the afterEach that closes it. */
export function ticketsPerTest(): TicketsPerTest {
  let current: TicketsServer | undefined;

  beforeEach(async () => {
    current = await startTicketsServer({ port: 0 });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  const server = (): TicketsServer => {
    if (current === undefined) throw new Error("the tickets server runs only inside a test");
    return current;
  };
  return { server, post: (body, headers) => postJson(server().url, body, headers) };
}
