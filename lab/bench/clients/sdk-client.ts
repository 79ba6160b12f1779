// The official TypeScript SDK v2 client behind the bench interface, pinned to 2026-07-28 (its default is
// the 2025 handshake). Only the limits that would stop a case are lifted; each is named here.
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { PAYLOAD_TOOL, PROTOCOL_VERSION } from "../servers/answers.js";
import { BENCH_MAX_LINE_BYTES, textLength, type BenchClient, type Endpoint } from "./bench-client.js";

export interface SdkClientOptions {
  /** `StdioClientTransport`'s `maxBufferSize`: 10 MB by default, which refuses a 10 MB result. */
  readonly maxBufferSize?: number;
  /** `listMaxPages`: 64 by default, which refuses 500 pages; 0 lifts the cap. */
  readonly listMaxPages?: number;
}

function transportFor(endpoint: Endpoint, maxBufferSize: number | undefined): Transport {
  switch (endpoint.kind) {
    case "stdio":
      return new StdioClientTransport({ command: endpoint.command, args: [...endpoint.args], stderr: "inherit", maxBufferSize });
    case "http":
      return new StreamableHTTPClientTransport(new URL(endpoint.url));
    default: {
      const unknown: never = endpoint;
      throw new Error(`unknown endpoint ${JSON.stringify(unknown)}`);
    }
  }
}

/** The SDK with the bench's lifted limits: a 256 MB line cap and no page cap. */
export const SDK_LIFTED: SdkClientOptions = { maxBufferSize: BENCH_MAX_LINE_BYTES, listMaxPages: 0 };

export async function connectSdk(endpoint: Endpoint, options: SdkClientOptions = SDK_LIFTED): Promise<BenchClient> {
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: PROTOCOL_VERSION } }, listMaxPages: options.listMaxPages },
  );
  await client.connect(transportFor(endpoint, options.maxBufferSize));
  return {
    call: async (bytes) => textLength((await client.callTool({ name: PAYLOAD_TOOL, arguments: { bytes } })).content),
    // "bypass": every listing goes to the server, as mca's does.
    listTools: async () => (await client.listTools(undefined, { cacheMode: "bypass" })).tools.length,
    close: () => client.close(),
  };
}
