import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { mountServers, type MountDeps, type MountedServers } from "./mount-servers.js";
import type { JsonObject, JsonRpcNotification } from "./jsonrpc.js";
import { createResourceSubscriptions } from "./resource-subscriptions.js";
import { readResource } from "./resources.js";
import { startStatefulSdkServer, type StatefulSdkServer } from "./test-support/sdk-v1-http-server.js";

const URI = "note://one";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resolves the next time `check` holds, checked after each event the test reports through `poke`. */
function waiter() {
  const waiting: Array<() => void> = [];
  return {
    poke: () => {
      for (const wake of waiting.splice(0)) wake();
    },
    async until(check: () => boolean): Promise<void> {
      while (!check()) await new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}

/**
 * A 2025-11-25 server built with the SDK v1 that declares `resources.subscribe`, records what it is asked
 * to (un)subscribe, and sends `notifications/resources/updated` when the test says so.
 */
async function subscribingServer(events: ReturnType<typeof waiter>, subscribe = true) {
  const asked: string[] = [];
  const sessions: McpServer[] = [];
  const server: StatefulSdkServer = await startStatefulSdkServer((mcp) => {
    mcp.registerResource("one", URI, { description: "A note." }, () => ({ contents: [{ uri: URI, text: "first" }] }));
    if (subscribe) {
      mcp.server.registerCapabilities({ resources: { subscribe: true } });
      mcp.server.setRequestHandler(SubscribeRequestSchema, (request) => {
        asked.push(`subscribe ${request.params.uri}`);
        events.poke();
        return {};
      });
      mcp.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
        asked.push(`unsubscribe ${request.params.uri}`);
        events.poke();
        return {};
      });
    }
    sessions.push(mcp);
  });
  cleanups.push(() => server.close());
  return { server, asked, updated: (uri: string) => Promise.all(sessions.map((mcp) => mcp.server.sendResourceUpdated({ uri }))) };
}

async function mount(url: string, events: ReturnType<typeof waiter>) {
  const warnings: string[] = [];
  const deps: MountDeps = {
    clientVersion: "0.0.0-test",
    baseEnv: {},
    onWarning: (warning) => {
      warnings.push(warning);
      events.poke();
    },
  };
  const mounted: MountedServers = await mountServers({ file: "/tmp/mcp.config.json", servers: [{ alias: "notes", transport: "http", url, headers: {}, enabled: true }] }, deps);
  cleanups.push(() => mounted.close());
  const connection = mounted.connections[0];
  if (connection === undefined) throw new Error("nothing mounted");
  return { mounted, connection, warnings };
}

describe("resource subscriptions against an SDK v1 server", () => {
  it("subscribes to a resource once read, says in one line when it changed, keeps the change for the model, and unsubscribes at the end", async () => {
    const events = waiter();
    const { server, asked, updated } = await subscribingServer(events);
    const { mounted, connection, warnings } = await mount(server.url, events);

    expect(await readResource(connection, URI)).toEqual([{ uri: URI, text: "first" }]);
    await events.until(() => asked.length === 1);
    await readResource(connection, URI);
    expect(connection.takeResourceChanges()).toEqual([]);

    await updated(URI);
    await events.until(() => warnings.length === 1);
    await updated(URI);
    expect({ warnings, changes: connection.takeResourceChanges(), again: connection.takeResourceChanges() }).toEqual({
      warnings: [`notes: resource ${URI} changed; the model hears of it with your next message`],
      changes: [URI],
      again: [],
    });

    await mounted.close();
    expect(asked).toEqual([`subscribe ${URI}`, `unsubscribe ${URI}`]);
  });

  it("subscribes to nothing on a server that does not declare subscribe", async () => {
    const events = waiter();
    const { server } = await subscribingServer(events, false);
    const { connection } = await mount(server.url, events);
    await readResource(connection, URI);
    const before = server.requests.length;
    expect(await readResource(connection, URI)).toEqual([{ uri: URI, text: "first" }]);
    expect(server.requests.slice(before).filter((request) => request.method === "POST").map((request) => request.rpc)).toEqual(["resources/read"]);
  });
});

describe("createResourceSubscriptions in the 2026-07-28 era", () => {
  it("opens one subscriptions/listen naming every watched URI, replaced when one is added, and closes it at the end", async () => {
    const listens: Array<{ params: JsonObject; signal: AbortSignal; tell: (notification: JsonRpcNotification) => void }> = [];
    const requests: string[] = [];
    const subscriptions = createResourceSubscriptions({
      era: "modern",
      capabilities: () => ({ resources: { subscribe: true } }),
      request: async (method) => {
        requests.push(method);
        return {};
      },
      listen: (params, tell, signal) => {
        listens.push({ params, signal, tell });
        return new Promise(() => undefined);
      },
      warn: () => undefined,
    });
    const updated: string[] = [];
    const onUpdated = (uri: string): void => void updated.push(uri);
    await subscriptions.watch("a://1", onUpdated);
    await subscriptions.watch("a://2", onUpdated);
    listens[1]?.tell({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "a://2" } });
    await subscriptions.close();
    expect({
      params: listens.map((listen) => listen.params),
      aborted: listens.map((listen) => listen.signal.aborted),
      updated,
      requests,
    }).toEqual({
      params: [{ notifications: { resourceSubscriptions: ["a://1"] } }, { notifications: { resourceSubscriptions: ["a://1", "a://2"] } }],
      aborted: [true, true],
      updated: ["a://2"],
      requests: [],
    });
  });
});
