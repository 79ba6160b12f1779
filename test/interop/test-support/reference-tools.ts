// The tool list the official SDK v1 client (@modelcontextprotocol/sdk 1.32.2) gets from a server: the
// reference every interop test compares mca's mounted tools against, so that mca is not checked by itself.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export type ReferenceTarget =
  | { readonly kind: "stdio"; readonly command: string; readonly args: readonly string[]; readonly env?: Readonly<Record<string, string>> }
  | { readonly kind: "http"; readonly url: string };

export interface ReferenceTool {
  readonly name: string;
  readonly inputSchema: unknown;
}

function transportFor(target: ReferenceTarget): StdioClientTransport | StreamableHTTPClientTransport {
  switch (target.kind) {
    case "stdio":
      return new StdioClientTransport({ command: target.command, args: [...target.args], env: { ...target.env }, stderr: "ignore" });
    case "http":
      return new StreamableHTTPClientTransport(new URL(target.url));
    default: {
      const unknown: never = target;
      throw new Error(`unknown target ${JSON.stringify(unknown)}`);
    }
  }
}

/** Every page of tools/list, as the SDK client sees it; it declares no capability, as mca does at `initialize`. */
export async function referenceTools(target: ReferenceTarget): Promise<ReferenceTool[]> {
  const client = new Client({ name: "mca-interop-reference", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transportFor(target));
  try {
    const tools: ReferenceTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await client.close();
  }
}
