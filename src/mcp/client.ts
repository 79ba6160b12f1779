// The MCP client for one server: one interface whichever era the server speaks, and the core both eras'
// clients are made of (modern-client.ts and legacy-client.ts: each this core with its era's rules). It is
// built over a wire whose era the negotiation (era.ts) has settled, and from then on it hears the server,
// sends every request through one exchange, follows lists to their end, returns tool results as typed
// outcomes, watches lists and resources, and ends all of that on close(). What differs by era is asked of
// its rules, never tested here. Its failures are thrown McpErrors; the server's connection turns them into values.
import type { ToolArgs } from "../kernel/index.js";
import { parseCallOutcome, type CallToolOptions, type CallToolOutcome } from "./call-result.js";
import { createExchange, type ExchangeRules } from "./exchange.js";
import { McpError, METHOD_NOT_FOUND, type JsonObject, type JsonRpcNotification, type JsonRpcRequest } from "./jsonrpc.js";
import { changingLists, openListSubscription, type ListKind, type ListSubscription } from "./list-changes.js";
import type { RequestOptions, ServerRequestAnswer } from "./peer.js";
import { createResourceSubscriptions } from "./resource-subscriptions.js";
import { listServerTools, type ListingCap, type RemoteToolInfo } from "./tool-list.js";
import type { Era } from "./versions.js";
import type { Wire } from "./wire.js";

export type { CallToolOptions } from "./call-result.js";
export type { RequestOptions } from "./peer.js";

export interface McpClient {
  /** The alias of the server: the `server` of every McpError of this client. */
  readonly server: string;
  /** Ends the client and its wire; idempotent. */
  close(): Promise<void>;
  /** The version requests carry now: the one its era settled, until a -32022 makes mca pick another. */
  protocolVersion(): string;
  /**
   * What the server said of itself when the era was settled (`server/discover`, or `initialize`): the
   * capabilities it declares and its instructions for the model.
   */
  serverCapabilities(): JsonObject;
  instructions(): string | undefined;
  /** Every page, then the first `cap.maxTools` tools its limit offers (MAX_TOOLS_PER_SERVER by default); the rest refused with one warning. */
  listTools(cap?: ListingCap): Promise<RemoteToolInfo[]>;
  callTool(name: string, args: ToolArgs, options?: CallToolOptions): Promise<CallToolOutcome>;
  /** How many times a legacy HTTP server's lost session was replaced by a new one. */
  sessionRenewals(): number;
  /** Any other request (resources/list, resources/read, prompts/get…): the raw result object. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /**
   * Tells `onChange` each time one of the server's lists changes, from now until close(): a legacy server's
   * `notifications/<kind>/list_changed`; for a 2026-07-28 server, one subscriptions/listen for the kinds its
   * capabilities say may change (none: nothing is opened).
   */
  watchLists(onChange: (kind: ListKind) => void): void;
  /** The kinds an open subscription's acknowledgement accepted: the changes a 2026-07-28 server reports now. */
  subscribedLists(): readonly ListKind[];
  /**
   * Hears from now until close() when `uri` (read by mca) changes, if the server declares
   * `resources.subscribe` (resource-subscriptions.ts); close() unsubscribes. Never rejects.
   */
  watchResource(uri: string, onUpdated: (uri: string) => void): Promise<void>;
}

/** How the client hears list changes: the two ways the eras have. */
export interface ListHearing {
  /** A legacy server's `notifications/<kind>/list_changed`, heard until close(). */
  byNotification(onChange: (kind: ListKind) => void): void;
  /** One `subscriptions/listen` for the kinds the server's capabilities say may change. */
  bySubscription(onChange: (kind: ListKind) => void): void;
}

/** What the client does in its era: the one thing each era's client gives the core. */
export interface EraRules extends ExchangeRules {
  /** For resource-subscriptions.ts, which keeps its own per-era ways. */
  readonly era: Era;
  /** The kind of list a notification says changed, when the era hears that by notification. */
  listChangeOf(notification: JsonRpcNotification): ListKind | undefined;
  /** The answer to a request the server sent of its own; undefined: a violation, warned about and left unanswered. */
  answer(request: JsonRpcRequest, tool: string): ServerRequestAnswer | Promise<ServerRequestAnswer> | undefined;
  watchLists(onChange: (kind: ListKind) => void, hearing: ListHearing): void;
  /** How many times a lost session was replaced by a new one. */
  sessionRenewals(): number;
}

/** What the server said of itself when its era was settled. */
interface ServerDescription {
  readonly capabilities: JsonObject;
  readonly instructions?: string;
}

export function createClientCore(wire: Wire, described: ServerDescription, rules: EraRules): McpClient {
  const { server, warn } = wire;
  const { request: exchange, listen } = createExchange(wire, rules);
  /** The tools being called, latest last: a legacy server's request for input names none, so it is taken to be about the latest. */
  const toolsInFlight: string[] = [];
  let closing: Promise<void> | undefined;
  /** Who hears a legacy server's list changes, and the subscriptions open on a modern one: all ended by close(). */
  const listWatchers = new Set<(kind: ListKind) => void>();
  const subscriptions = new Set<ListSubscription>();
  const resources = createResourceSubscriptions({
    era: rules.era,
    capabilities: () => described.capabilities,
    request: (method, params, requestOptions) => exchange(method, params, requestOptions),
    listen,
    warn,
  });

  wire.hear("client", {
    notification(notification) {
      if (resources.take(notification)) return;
      // A legacy server's list changes come by themselves; a modern one's only on a subscription (routed).
      const changed = rules.listChangeOf(notification);
      if (changed === undefined) wire.router.route(notification);
      else for (const watcher of listWatchers) watcher(changed);
    },
    request: (request) => rules.answer(request, toolsInFlight.at(-1) ?? ""),
  });

  /**
   * A server that offers only resources or prompts declares no `tools` and may refuse `tools/list` with
   * -32601: it then has no tools, and still comes up. One that declares tools and refuses has failed.
   */
  async function listTools(cap: ListingCap = {}): Promise<RemoteToolInfo[]> {
    const fetchPage = (cursor: string | undefined): Promise<JsonObject> => exchange("tools/list", cursor === undefined ? {} : { cursor }, {});
    try {
      return await listServerTools({ ...cap, server, fetchPage, warn });
    } catch (error) {
      const declaresTools = described.capabilities.tools !== undefined;
      if (!declaresTools && error instanceof McpError && error.kind === "server" && error.code === METHOD_NOT_FOUND) return [];
      throw error;
    }
  }

  async function callTool(name: string, args: ToolArgs, callOptions: CallToolOptions = {}): Promise<CallToolOutcome> {
    const { inputResponses, requestState } = callOptions;
    const params: JsonObject = { name, arguments: args };
    if (inputResponses !== undefined) params.inputResponses = inputResponses;
    if (requestState !== undefined) params.requestState = requestState;
    toolsInFlight.push(name);
    let result: JsonObject;
    try {
      result = await exchange("tools/call", params, callOptions);
    } finally {
      toolsInFlight.splice(toolsInFlight.lastIndexOf(name), 1);
    }
    const outcome = parseCallOutcome(result);
    if (outcome instanceof Error) throw new McpError("protocol", `tools/call ${name}: ${outcome.message}`, { server });
    return outcome;
  }

  function watchLists(onChange: (kind: ListKind) => void): void {
    if (closing !== undefined) return;
    rules.watchLists(onChange, { byNotification: (listener) => listWatchers.add(listener), bySubscription: subscribeToLists });
  }

  function subscribeToLists(onChange: (kind: ListKind) => void): void {
    const kinds = changingLists(described.capabilities);
    if (kinds.length === 0) return;
    const subscription = openListSubscription(kinds, { listen, onChange, warn });
    subscriptions.add(subscription);
    void subscription.ended.then(() => subscriptions.delete(subscription));
  }

  /** Subscriptions end first, while the connection can still say so (stdio: `notifications/cancelled`). */
  function close(): Promise<void> {
    closing ??= (() => {
      listWatchers.clear();
      for (const subscription of subscriptions) subscription.close();
      return resources.close().then(() => wire.close());
    })();
    return closing;
  }

  return {
    server,
    close,
    protocolVersion: () => wire.protocolVersion(),
    serverCapabilities: () => described.capabilities,
    instructions: () => described.instructions,
    listTools,
    callTool,
    sessionRenewals: () => rules.sessionRenewals(),
    request: (method, params = {}, requestOptions = {}) => exchange(method, params, requestOptions),
    watchLists,
    subscribedLists: () => [...new Set([...subscriptions].flatMap((subscription) => subscription.accepted() ?? []))],
    watchResource: (uri, onUpdated) => resources.watch(uri, onUpdated),
  };
}
