// mca's own MCP client (src/mcp) behind the bench interface: the stdio or HTTP transport, its wire and client,
// exactly as the CLI composes them, with nothing tuned for the bench.
import { createWire, openModernClient } from "../../../src/mcp/index.js";
import { createHttpTransport } from "../../../src/mcp/index.js";
import { createStdioTransport } from "../../../src/mcp/index.js";
import type { Transport } from "../../../src/mcp/index.js";
import { PAYLOAD_TOOL } from "../servers/answers.js";
import { textLength, type BenchClient, type Endpoint } from "./bench-client.js";

export interface McaClientOptions {
  /** Only for the cap case; absent, the transport's own default applies. */
  readonly maxLineBytes?: number;
}

function transportFor(endpoint: Endpoint, options: McaClientOptions): Transport {
  switch (endpoint.kind) {
    case "stdio":
      return createStdioTransport({ label: "bench", command: endpoint.command, args: endpoint.args, maxLineBytes: options.maxLineBytes });
    case "http":
      return createHttpTransport({ label: "bench", url: endpoint.url });
    default: {
      const unknown: never = endpoint;
      throw new Error(`unknown endpoint ${JSON.stringify(unknown)}`);
    }
  }
}

export async function connectMca(endpoint: Endpoint, options: McaClientOptions = {}): Promise<BenchClient> {
  const wire = createWire({ transport: transportFor(endpoint, options), clientVersion: "bench" });
  await wire.start();
  const client = await openModernClient(wire);
  return {
    async call(bytes) {
      const outcome = await client.callTool(PAYLOAD_TOOL, { bytes });
      if (outcome.kind !== "complete") throw new Error(`payload answered ${outcome.kind}`);
      return textLength(outcome.content);
    },
    listTools: async () => (await client.listTools()).length,
    close: () => client.close(),
  };
}
