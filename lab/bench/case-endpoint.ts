// Brings up the server of a case and connects the case's client to it; close() takes both down. Each
// client's module is imported only when its case runs, so no case's peak RSS carries another library.
import type { BenchClient, Endpoint } from "./clients/bench-client.js";
import type { McaClientOptions } from "./clients/mca-client.js";
import type { SdkClientOptions } from "./clients/sdk-client.js";
import type { ClientName, ServerName } from "./cases.js";
import { launchHttpServer, type LaunchedServer } from "./servers/http-launch.js";
import { serverCommand } from "./servers/server-command.js";

export interface Connected {
  readonly client: BenchClient;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly serverArgs?: readonly string[];
  readonly mca?: McaClientOptions;
  readonly sdk?: SdkClientOptions;
}

async function startServer(server: ServerName, serverArgs: readonly string[]): Promise<{ endpoint: Endpoint; launched?: LaunchedServer }> {
  switch (server) {
    case "raw-stdio":
      return { endpoint: { kind: "stdio", ...serverCommand("raw-stdio-server", serverArgs) } };
    case "sdk-stdio":
      return { endpoint: { kind: "stdio", ...serverCommand("sdk-stdio-server", serverArgs) } };
    case "sdk-http-json":
    case "sdk-http-sse": {
      const replies = server === "sdk-http-json" ? "json" : "sse";
      const launched = await launchHttpServer(serverCommand("sdk-http-server", ["--replies", replies, ...serverArgs]));
      return { endpoint: { kind: "http", url: launched.url }, launched };
    }
    case "plain-http": {
      const launched = await launchHttpServer(serverCommand("plain-http-server", serverArgs));
      return { endpoint: { kind: "http", url: launched.url }, launched };
    }
    default: {
      const unknown: never = server;
      throw new Error(`unknown server ${String(unknown)}`);
    }
  }
}

async function connectClient(client: ClientName, endpoint: Endpoint, options: ConnectOptions): Promise<BenchClient> {
  switch (client) {
    case "mca": {
      const { connectMca } = await import("./clients/mca-client.js");
      return connectMca(endpoint, options.mca);
    }
    case "sdk": {
      const { connectSdk, SDK_LIFTED } = await import("./clients/sdk-client.js");
      return connectSdk(endpoint, options.sdk ?? SDK_LIFTED);
    }
    case "raw": {
      if (endpoint.kind === "http") return (await import("./clients/raw-fetch-client.js")).connectRawFetch(endpoint);
      return (await import("./clients/raw-stdio-client.js")).connectRawStdio(endpoint);
    }
    default: {
      const unknown: never = client;
      throw new Error(`unknown client ${String(unknown)}`);
    }
  }
}

export async function connectCase(server: ServerName, client: ClientName, options: ConnectOptions = {}): Promise<Connected> {
  const { endpoint, launched } = await startServer(server, options.serverArgs ?? []);
  try {
    const connected = await connectClient(client, endpoint, options);
    return {
      client: connected,
      async close() {
        try {
          await connected.close();
        } finally {
          await launched?.close();
        }
      },
    };
  } catch (error) {
    await launched?.close();
    throw error;
  }
}
