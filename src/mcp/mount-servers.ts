// Mounts every enabled server of the config at session start — each discovered on its own, in parallel, so
// start-up takes as long as the slowest server and one failure never stops the others — and offers each
// remote tool as an ordinary Tool of kind "remote" under its flat name, whose run sends the server's
// ORIGINAL name and turns every outcome, failures included, into a result. Each tool carries its definition's
// hash, and how that compares with the pinned one and with the one first seen this session.
import { serverSideName, type DefinitionStatus, type Tool, type ToolArgs, type ToolContext, type ToolDefinition, type ToolResult } from "../kernel/index.js";
import { definitionChanges, definitionHash, pinnedChangesLine, toolDefinition, type DefinitionHashes } from "./definition-hash.js";
import { completeResult, inputRequiredText } from "./call-result.js";
import { callToolToCompletion, type InputResponder } from "./input.js";
import { McpError, type JsonRpcNotification } from "./jsonrpc.js";
import type { ListChange } from "./list-changes.js";
import { buildNamespace, toolPrefix, type Namespace, type NamespaceEntry, type ToolRef } from "./namespace.js";
import type { ConnectionDeps, ServerConnection, ServerStatus } from "./server-connection.js";
import { SERVER_SUBJECT_NAMES } from "./resources.js";
import type { McpServerConfig } from "./server-spec.js";
import { isAppOnly } from "./apps.js";
import { toolTitle, type RemoteToolInfo, type ToolLimit } from "./tool-list.js";

/** The validated MCP server config: what mcp.config.json (or --mcp-config) says. */
export interface McpConfig {
  /** The file as the user named it, for messages. */
  readonly file: string;
  /** In the order the file lists them, disabled ones included (with `enabled: false`). */
  readonly servers: readonly McpServerConfig[];
  /** The most tools one server offers (the user's settings, `mcp.maxToolsPerServer`); MAX_TOOLS_PER_SERVER when absent. */
  readonly maxToolsPerServer?: number;
  /** The tools each server may offer, by alias, as its entry limits them; a server not named here offers every tool it lists. */
  readonly toolLimits?: ReadonlyMap<string, ToolLimit>;
}

export interface MountedServers {
  /** The remote tools, under their flat names, in namespace order; a reconnect may change them. */
  readonly tools: readonly Tool[];
  /**
   * The tools a server keeps for its app's view (MCP Apps, `_meta.ui.visibility` without "model"): never in
   * `tools`, so never offered to the model; a call by name is refused with the reason (`findTool`).
   */
  readonly appOnlyTools: readonly Tool[];
  /**
   * For a name no server offers now: a tool whose call names the reason — the server no longer offers it
   * (its list changed), or never came up.
   */
  findTool(name: string): Tool | undefined;
  /** Reverse lookup of a flat name, through the namespace's table only. */
  lookup(flatName: string): ToolRef | undefined;
  statuses(): ServerStatus[];
  /** Every enabled server's connection, in the config's order: for what a server offers besides tools. */
  readonly connections: readonly ServerConnection[];
  /**
   * Closes one server and connects it again (`/mcp reconnect`), then offers the tools it lists now: its
   * status after the attempt, or an Error when the alias names no enabled server.
   */
  reconnect(alias: string, signal?: AbortSignal): Promise<ServerStatus | Error>;
  /**
   * `listener` hears each change to a server's lists until the returned function is called; a change of
   * tools once `tools` offers the new ones.
   */
  onListChanged(listener: (change: ListChange) => void): () => void;
  close(): Promise<void>;
}

/** How many tools the servers no longer offer are remembered, to refuse a call to one with that reason. */
const MAX_WITHDRAWN_REMEMBERED = 1000;

/** The cap on a server's tools comes with the config, so one place says it. */
export type MountDeps = Omit<ConnectionDeps, "configFile" | "listingCap"> & {
  /** The definitions the user pinned, by server alias (the user's own record, never the project's). */
  readonly pins?: ReadonlyMap<string, DefinitionHashes>;
};

export async function mountServers(config: McpConfig, deps: MountDeps): Promise<MountedServers> {
  const enabled = config.servers.filter((server) => server.enabled);
  // server-connection.js brings both transports, node:http and node:https with it (a third of the modules
  // mca loads at start): a session without servers never needs them.
  const connections: ServerConnection[] = [];
  if (enabled.length > 0) {
    const connection = await import("./server-connection.js");
    for (const server of enabled) {
      const listingCap = { maxTools: config.maxToolsPerServer, limit: config.toolLimits?.get(server.alias) };
      connections.push(new connection.ServerConnection(server, { ...deps, configFile: config.file, listingCap }));
    }
  }
  await Promise.all(connections.map((connection) => connection.connect()));

  const byAlias = new Map(connections.map((connection) => [connection.alias, connection]));
  // A written limit applies as each listing is read (tool-list.ts): an excluded tool is never listed, so it is
  // never offered, counted or announced.
  const definitions = createDefinitionBook(deps.pins ?? new Map());
  /** The flat names are one namespace over every server, so a server's new tools rebuild all of it. */
  const offered = (): { namespace: Namespace; tools: Tool[]; appOnly: Map<string, Tool> } => {
    const namespace = buildNamespace(connections.flatMap((c) => c.tools.map((tool) => ({ alias: c.alias, tool: tool.name }))), SERVER_SUBJECT_NAMES);
    // A table per server, not a search per entry: a server's thousand tools cost a thousand look-ups, not a million.
    const infoByAlias = new Map(connections.map((c) => [c.alias, new Map(c.tools.map((tool) => [tool.name, tool]))]));
    const tools: Tool[] = [];
    // Named in the same namespace as the rest, so a tool that moves between the model and its app keeps its name.
    const appOnly = new Map<string, Tool>();
    for (const entry of namespace.entries()) {
      const connection = byAlias.get(entry.alias);
      const info = infoByAlias.get(entry.alias)?.get(entry.tool);
      if (connection === undefined || info === undefined) continue;
      const tool = createMountedTool(connection, deps.inputResponder, info, entry.flatName, definitions.judge(connection.alias, info));
      // Refused at `parse`, before the gate: nobody is asked to approve a call that will not be sent.
      if (isAppOnly(info)) appOnly.set(entry.flatName, { ...tool, parse: () => new Error(appOnlyRefusal(entry)), run: async () => ({ text: appOnlyRefusal(entry), isError: true }) });
      else tools.push(tool);
    }
    return { namespace, tools, appOnly };
  };
  let { namespace, tools, appOnly } = offered();
  for (const warning of collisionWarnings(namespace.sanitisingCollisions())) deps.onWarning(warning);
  const connected = (alias: string): boolean => byAlias.get(alias)?.state === "connected";
  for (const line of definitions.pinnedChangeLines(tools, connected)) deps.onWarning(line);
  /** Flat names offered once and no longer: the model may still name one from an earlier turn. */
  const withdrawn = new Map<string, ToolRef>();
  const reoffer = (): void => {
    const before = namespace;
    ({ namespace, tools, appOnly } = offered());
    for (const entry of before.entries()) if (!namespace.lookup(entry.flatName)) withdrawn.set(entry.flatName, { alias: entry.alias, tool: entry.tool });
    for (const entry of namespace.entries()) withdrawn.delete(entry.flatName);
    // A server that keeps renaming its tools must not grow this without end: the oldest names are forgotten
    // (a call to one then reads as any unknown tool's).
    for (const oldest of withdrawn.keys()) {
      if (withdrawn.size <= MAX_WITHDRAWN_REMEMBERED) break;
      withdrawn.delete(oldest);
    }
  };
  const listListeners = new Set<(change: ListChange) => void>();
  for (const connection of connections) {
    connection.onListChanged((change) => {
      if (change.kind === "tools") reoffer();
      for (const listener of listListeners) listener(change);
    });
  }

  return {
    get tools() {
      return tools;
    },
    get appOnlyTools() {
      return [...appOnly.values()];
    },
    findTool(name) {
      const kept = appOnly.get(name);
      if (kept !== undefined) return kept;
      if (namespace.lookup(name)) return undefined;
      const gone = withdrawn.get(name);
      if (gone !== undefined) return createWithdrawnTool(gone, name);
      const owner = connections.find((c) => (c.state === "failed" || c.state === "needs login") && name.startsWith(toolPrefix(c.alias)));
      return owner && createUnavailableTool(owner, deps.inputResponder, name);
    },
    lookup: (flatName) => namespace.lookup(flatName),
    statuses: () => connections.map((connection) => connection.status()),
    connections,
    async reconnect(alias, signal) {
      const connection = byAlias.get(alias);
      if (connection === undefined) return new Error(unknownServerText(config, alias));
      await connection.reconnect(signal);
      reoffer();
      return connection.status();
    },
    onListChanged(listener) {
      listListeners.add(listener);
      return () => listListeners.delete(listener);
    },
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

function unknownServerText(config: McpConfig, alias: string): string {
  const named = JSON.stringify(alias);
  if (config.servers.some((server) => server.alias === alias)) return `MCP server ${named} is disabled in ${config.file} ("enabled": false)`;
  const aliases = config.servers.filter((server) => server.enabled).map((server) => server.alias);
  return `no MCP server ${named} in ${config.file}${aliases.length === 0 ? "" : `; its servers: ${aliases.join(", ")}`}`;
}

/** A server's colliding groups are named one by one up to this many; the rest are counted in one more warning. */
const MAX_COLLISION_WARNINGS_PER_SERVER = 5;

/** Said once at start, a bounded number per server: a server can make every one of its tools collide. */
function collisionWarnings(groups: readonly (readonly NamespaceEntry[])[]): string[] {
  const byAlias = new Map<string, (readonly NamespaceEntry[])[]>();
  for (const group of groups) {
    const alias = group[0]?.alias ?? "";
    const own = byAlias.get(alias);
    if (own === undefined) byAlias.set(alias, [group]);
    else own.push(group);
  }
  return [...byAlias].flatMap(([alias, own]) => {
    const named = own.slice(0, MAX_COLLISION_WARNINGS_PER_SERVER).map(collisionWarning);
    const more = own.length - named.length;
    return more === 0 ? named : [...named, `${alias}: ${more} more groups of tools have the same name once sanitised; each tool is offered under a hash-suffixed name`];
  });
}

/** A rule written with the plain name reaches neither tool, the server's own names do. */
function collisionWarning(group: readonly NamespaceEntry[]): string {
  const names = group.map((entry) => JSON.stringify(entry.tool)).join(", ");
  const flat = group.map((entry) => entry.flatName).join(", ");
  const own = group.map((entry) => JSON.stringify(serverSideName(entry.alias, entry.tool))).join(", ");
  return `${group[0]?.alias ?? ""}: tools ${names} have the same name once sanitised; they are offered as ${flat}, and rules reach them as these or as ${own}`;
}

// ---------------------------------------------------------------------------------------------------
// A mounted tool.

function progressLine(notification: JsonRpcNotification): string | undefined {
  if (notification.method !== "notifications/progress") return undefined;
  const { progress, total, message } = notification.params ?? {};
  const amount = typeof total === "number" ? `${String(progress)}/${total}` : String(progress);
  return typeof message === "string" ? `${message} (${amount})` : amount;
}

/** How the connection says a server is gone or never came up: what `/mcp reconnect` may mend (not a login, not the session's end). */
const MENDED_BY_RECONNECT: readonly string[] = ["disconnected:", "not available: it failed to start:"];

/**
 * The edge where a failure meets the model: the server's name is rendered here, once. A server out of reach
 * ends with what brings it back, for the model to pass on to the user.
 */
function failureText(alias: string, failure: McpError): string {
  // An unavailable server is the subject of its reason ("… is disconnected: …"); any other failure is about a request.
  const text = failure.kind === "unavailable" ? `MCP server "${alias}" is ${failure.message}` : `MCP server "${alias}": ${failure.message}`;
  const mendable = failure.kind === "unreachable" || (failure.kind === "unavailable" && MENDED_BY_RECONNECT.some((start) => failure.message.startsWith(start)));
  return mendable ? `${text}; run /mcp reconnect ${alias}` : text;
}

/** `info`, the tool as its server lists it, lets the result be checked against its outputSchema. */
/** `responder`: the session's, the one its connections were given; it answers the call's `input_required` results. */
async function callRemote(
  connection: ServerConnection,
  responder: InputResponder | undefined,
  tool: string,
  args: ToolArgs,
  context: ToolContext,
  info?: RemoteToolInfo,
): Promise<ToolResult> {
  const requestOptions = {
    signal: context.signal,
    wantProgress: true,
    onNotification: (notification: JsonRpcNotification) => {
      const line = progressLine(notification);
      if (line !== undefined) context.onProgress?.(line);
    },
  };
  // With a responder, an `input_required` result is answered and retried; without one it is reported below.
  const outcome = responder
    ? await callToolToCompletion((name, callArgs, options) => connection.callTool(name, callArgs, options ?? {}), tool, args, {
        ...requestOptions,
        support: responder.support,
        answer: (requests, ask) => responder.answer(requests, { ...ask, server: connection.alias }),
      })
    : await connection.callTool(tool, args, requestOptions);
  if (outcome instanceof McpError) return { text: failureText(connection.alias, outcome), isError: true };
  switch (outcome.kind) {
    case "complete":
      return completeResult(outcome, { alias: connection.alias, tool: info });
    case "input_required":
      return { text: inputRequiredText(connection.alias, tool, outcome), isError: true };
    default: {
      const unknown: never = outcome;
      throw new Error(`unknown outcome ${JSON.stringify(unknown)}`);
    }
  }
}

/** Starts the description of a tool the server runs only as a task, so the model and /tools see it at once. */
export const NEEDS_TASKS_MARK = "[needs tasks: mca cannot run it]";

/** Said instead of sending the call: the server would only refuse a plain call (-32601 or the like). */
function needsTasksRefusal(alias: string, tool: string): ToolResult {
  const text =
    `MCP server "${alias}": tool "${tool}" runs only as a task (execution.taskSupport "required"), ` +
    "and mca does not run tasks; it was not called";
  return { text, isError: true };
}

/** A remote tool's definition, its hash, and how it compares with what the user saw before. */
interface JudgedDefinition {
  readonly definition: ToolDefinition;
  readonly hash: string;
  readonly status: DefinitionStatus;
}

/**
 * The definitions of a session: each listed tool's hash (computed once per listed object, so a list change
 * of one server does not hash every other server's tools again), the hash each tool had when first seen this
 * session, and the pinned ones.
 */
function createDefinitionBook(pins: ReadonlyMap<string, DefinitionHashes>) {
  const judged = new WeakMap<RemoteToolInfo, JudgedDefinition>();
  const firstSeen = new Map<string, string>();
  return {
    judge(alias: string, info: RemoteToolInfo): JudgedDefinition {
      const known = judged.get(info);
      if (known !== undefined) return known;
      const definition = toolDefinition(info);
      const hash = definitionHash(definition);
      const key = `${alias}\0${info.name}`;
      const first = firstSeen.get(key) ?? hash;
      firstSeen.set(key, first);
      const pinned = pins.get(alias);
      const pin = pinned === undefined ? null : pinned.get(info.name) === hash ? "same" : "changed";
      const made: JudgedDefinition = { definition, hash, status: { pinned: pin, changedThisSession: first !== hash } };
      judged.set(info, made);
      return made;
    },
    /** One line per pinned server whose tools differ from the pinned ones; a server not connected has nothing to compare. */
    pinnedChangeLines(tools: readonly Tool[], connected: (alias: string) => boolean): string[] {
      return [...pins].flatMap(([alias, pinned]) => {
        if (!connected(alias)) return [];
        const own = tools.filter((tool) => tool.source === alias && tool.definitionHash !== undefined);
        const line = pinnedChangesLine(alias, definitionChanges(pinned, new Map(own.map((tool) => [tool.originalName, tool.definitionHash ?? ""]))));
        return line === undefined ? [] : [line];
      });
    },
  };
}

/** Said instead of sending the call: the server made the tool for its app's view, and no model is to call it. */
function appOnlyRefusal(ref: ToolRef): string {
  return (
    `not callable by the model: MCP server "${ref.alias}" made tool "${ref.tool}" for its app's view only ` +
    '(MCP Apps: its _meta.ui.visibility leaves out "model"), and mca renders no app views; it is not offered to the model and was not called'
  );
}

function createMountedTool(connection: ServerConnection, responder: InputResponder | undefined, info: RemoteToolInfo, flatName: string, judged: JudgedDefinition): Tool {
  const needsTasks = info.taskSupport === "required";
  // The title the user sees the tool by, quoted so that it stays one line inside the brackets.
  const title = toolTitle(info);
  const titled = title === undefined ? "" : `, titled ${JSON.stringify(title)}`;
  const origin = `${needsTasks ? `${NEEDS_TASKS_MARK} ` : ""}[MCP server "${connection.alias}" (${connection.spec.transport}), tool "${info.name}"${titled}]`;
  const about = info.description ?? "";
  return {
    name: flatName,
    description: about === "" ? origin : `${origin} ${about}`,
    inputSchema: info.inputSchema,
    kind: "remote",
    source: connection.alias,
    originalName: info.name,
    ...serverRuleName(info.name),
    ...(info.annotations === undefined ? {} : { annotations: info.annotations }),
    ...(info.icons === undefined ? {} : { icons: info.icons }),
    definitionHash: judged.hash,
    definition: judged.definition,
    definitionStatus: judged.status,
    run: async (args, context) => {
      // A tool the model was offered before the server's list changed is not sent.
      if (connection.state === "connected" && !connection.tools.some((tool) => tool.name === info.name)) return withdrawnRefusal({ alias: connection.alias, tool: info.name });
      return needsTasks ? needsTasksRefusal(connection.alias, info.name) : callRemote(connection, responder, info.name, args, context, info);
    },
  };
}

function withdrawnRefusal(ref: ToolRef): ToolResult {
  return { text: `MCP server "${ref.alias}" no longer offers tool "${ref.tool}"`, isError: true };
}

/** Stands in for a tool its server offered once and withdrew: the call is refused without being sent. */
function createWithdrawnTool(ref: ToolRef, flatName: string): Tool {
  return {
    name: flatName,
    description: `[MCP server "${ref.alias}"] no longer offers tool "${ref.tool}"`,
    inputSchema: { type: "object" },
    kind: "remote",
    source: ref.alias,
    originalName: ref.tool,
    ...serverRuleName(ref.tool),
    run: async () => withdrawnRefusal(ref),
  };
}

/** Stands in for any tool name of a server that never came up: the call gets the server's reason. */
function createUnavailableTool(connection: ServerConnection, responder: InputResponder | undefined, flatName: string): Tool {
  return {
    name: flatName,
    description: `[MCP server "${connection.alias}"] unavailable`,
    inputSchema: { type: "object" },
    kind: "remote",
    source: connection.alias,
    originalName: flatName,
    ...serverRuleName(flatName),
    run: async (args, context) => callRemote(connection, responder, flatName, args, context),
  };
}

/** The name rules reach a server's tool by under its prefix: its own, unless a call naming its server answers to that name. */
function serverRuleName(name: string): { serverRuleName?: string } {
  return SERVER_SUBJECT_NAMES.includes(name) ? {} : { serverRuleName: name };
}
