import { describe, expect, it } from "vitest";
import type { McpClient } from "./client.js";
import { nextState, type ConnectionState } from "./connection-state.js";
import type { Started } from "./server-start.js";
import { createModernClient } from "./modern-client.js";
import { createInMemoryTransport } from "./test-support/in-memory-transport.js";
import { createWire } from "./wire.js";

function client(): McpClient {
  return createModernClient(createWire({ transport: createInMemoryTransport(), clientVersion: "0.0.0" }));
}

const first = client();
const second = client();
const started: Started = { client: first, era: "modern", transport: "stdio", detected: false, tools: [], login: undefined };
const done = Promise.resolve();
const attempt = {};
const starting: ConnectionState = { kind: "starting", why: "not started", attempt, done };
const up: ConnectionState = { kind: "up", ...started, restartsLeft: 1 };

describe("nextState", () => {
  it("brings a starting server up with its one restart", () => {
    expect(nextState(starting, { type: "started", attempt, started })).toEqual(up);
  });

  it("lets only the start it is waiting for end a start: one superseded by a reconnect changes nothing", () => {
    expect(nextState(starting, { type: "started", attempt: {}, started })).toEqual(starting);
    expect(nextState(starting, { type: "start-failed", attempt: {}, reason: "ENOENT", needsLogin: false })).toEqual(starting);
  });

  it("records a failed start as failed, or as needing a login", () => {
    expect(nextState(starting, { type: "start-failed", attempt, reason: "ENOENT", needsLogin: false })).toEqual({ kind: "failed", reason: "ENOENT" });
    expect(nextState(starting, { type: "start-failed", attempt, reason: "no token", needsLogin: true })).toEqual({ kind: "needs-login", reason: "no token" });
  });

  it("takes a server down when its own client ends, and ignores the end of any other client", () => {
    expect(nextState(up, { type: "client-closed", client: first, reason: "exited" })).toEqual({ ...up, kind: "down", reason: "exited", alive: false });
    expect(nextState(up, { type: "client-closed", client: second, reason: "exited" })).toEqual(up);
  });

  it("keeps a client that could not reach its server taking calls, and brings the server up on the next answer", () => {
    const down = nextState(up, { type: "call-failed", client: first, reason: "refused" });
    expect(down).toEqual({ ...up, kind: "down", reason: "refused", alive: true });
    expect(nextState(down, { type: "call-answered", client: first })).toEqual(up);
  });

  it("spends the one restart on a restart, which brings the new client up without giving the restart back", async () => {
    const down = nextState(up, { type: "client-closed", client: first, reason: "exited" });
    const restart = Promise.resolve(second);
    const restarting = nextState(down, { type: "restarting", restart });
    expect(restarting).toEqual({ ...down, restartsLeft: 0, restart });
    expect(nextState(restarting, { type: "restarted", client: second })).toEqual({ ...up, client: second, restartsLeft: 0 });
    const spent = nextState(restarting, { type: "restart-failed", reason: "ENOENT" });
    expect(nextState(spent, { type: "restarting", restart })).toEqual(spent);
  });

  it("says a restart failed in the reason of the server that stays down", () => {
    const down = nextState(up, { type: "client-closed", client: first, reason: "exited" });
    const restarting = nextState(down, { type: "restarting", restart: Promise.resolve(second) });
    expect(nextState(restarting, { type: "restart-failed", reason: "ENOENT" })).toEqual({ ...down, restartsLeft: 0, reason: "restart failed: ENOENT", restart: undefined });
  });

  it("stays closed whatever happens next, keeping what it was", () => {
    const closed = nextState(up, { type: "close" });
    expect(closed).toEqual({ kind: "closed", was: up });
    expect(nextState(closed, { type: "client-closed", client: first, reason: "exited" })).toEqual(closed);
    expect(nextState(closed, { type: "starting", why: "reconnecting", attempt, done })).toEqual(closed);
  });
});
