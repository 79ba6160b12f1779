// A tool of an MCP server as the agent sees it: an ordinary Tool of kind "remote" under its flat name,
// whose run sends the server's ORIGINAL name and turns every outcome, failures included, into a result.
import type { Tool, ToolArgs, ToolContext, ToolResult } from "../kernel/index.js";
import { callToolToCompletion } from "./input-required.js";
import type { JsonRpcNotification } from "./jsonrpc.js";
import type { RemoteToolInfo } from "./remote-tool.js";
import { completeResultText, inputRequiredText } from "./result-text.js";
import type { ServerConnection } from "./server-connection.js";

function progressLine(notification: JsonRpcNotification): string | undefined {
  if (notification.method !== "notifications/progress") return undefined;
  const { progress, total, message } = notification.params ?? {};
  const amount = typeof total === "number" ? `${String(progress)}/${total}` : String(progress);
  return typeof message === "string" ? `${message} (${amount})` : amount;
}

/** Every failure names its server once, whether or not the error text already did. */
function failureText(alias: string, message: string): string {
  if (message.startsWith(`MCP server "${alias}"`)) return message;
  const prefix = `${alias}: `;
  return `MCP server "${alias}": ${message.startsWith(prefix) ? message.slice(prefix.length) : message}`;
}

export async function callRemote(connection: ServerConnection, tool: string, args: ToolArgs, context: ToolContext): Promise<ToolResult> {
  const requestOptions = {
    signal: context.signal,
    wantProgress: true,
    onNotification: (notification: JsonRpcNotification) => {
      const line = progressLine(notification);
      if (line !== undefined) context.onProgress?.(line);
    },
  };
  const responder = connection.deps.inputResponder;
  // With a responder, an `input_required` result is answered and retried; without one it is reported below.
  const outcome = responder
    ? await callToolToCompletion((name, callArgs, options) => connection.callTool(name, callArgs, options ?? {}), tool, args, {
        ...requestOptions,
        support: responder.support,
        answer: (requests, ask) => responder.answer(requests, { ...ask, server: connection.alias }),
      })
    : await connection.callTool(tool, args, requestOptions);
  if (outcome instanceof Error) return { text: failureText(connection.alias, outcome.message), isError: true };
  switch (outcome.kind) {
    case "complete":
      return { text: completeResultText(outcome), isError: outcome.isError };
    case "input_required":
      return { text: inputRequiredText(connection.alias, tool, outcome), isError: true };
    default: {
      const unknown: never = outcome;
      throw new Error(`unknown outcome ${JSON.stringify(unknown)}`);
    }
  }
}

export function createMountedTool(connection: ServerConnection, info: RemoteToolInfo, flatName: string): Tool {
  const origin = `[MCP server "${connection.alias}" (${connection.spec.transport}), tool "${info.name}"]`;
  const about = info.description ?? info.title ?? "";
  return {
    name: flatName,
    description: about === "" ? origin : `${origin} ${about}`,
    inputSchema: info.inputSchema,
    kind: "remote",
    source: connection.alias,
    originalName: info.name,
    ...(info.annotations === undefined ? {} : { annotations: info.annotations }),
    run: (args, context) => callRemote(connection, info.name, args, context),
  };
}

/** Stands in for any tool name of a server that never came up: the call gets the server's reason. */
export function createUnavailableTool(connection: ServerConnection, flatName: string): Tool {
  return {
    name: flatName,
    description: `[MCP server "${connection.alias}"] unavailable`,
    inputSchema: { type: "object" },
    kind: "remote",
    source: connection.alias,
    originalName: flatName,
    run: async (args, context) => callRemote(connection, flatName, args, context),
  };
}
