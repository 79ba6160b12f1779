// The world the self-test runs in: the tickets demo server on its port, the shipped mcp.config.json
// mounted (notes over stdio, tickets over HTTP, and notes again under an alias too long to keep), and the
// real kernel with an approval hook that approves each call and records what the gate answered. A second
// mount points tickets at an empty port, for the isolation assertions. Everything it starts, close() stops.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTicketsServer, type TicketsServer } from "../../servers/tickets.js";
import type { McpConfig } from "../config/index.js";
import { parseMcpConfig } from "../config/index.js";
import { createAgent, type Agent } from "../kernel/index.js";
import type { Verdict } from "../kernel/index.js";
import { mountServers, type JsonRpcMessage, type MountedServers, type Transport, type TransportSeams } from "../mcp/index.js";
import { createMockModel } from "../model/index.js";
import { createSnapshotFiles } from "../session/index.js";
import type { SelfTestSeams } from "./seams.js";

/** The package's own mcp.config.json, from src/selftest or from its build in dist/src/selftest. */
const CONFIG_FROM_HERE = import.meta.url.includes("/dist/src/") ? "../../../mcp.config.json" : "../../mcp.config.json";
export const SHIPPED_CONFIG = fileURLToPath(new URL(CONFIG_FROM_HERE, import.meta.url));

/**
 * notes mounted a second time, under an alias whose flat names are cut and hash-suffixed (and whose dots are
 * sanitised), so that only the namespace's table can lead a call back to its server.
 */
export const NOTES_MIRROR_ALIAS = "notes.mounted.a.second.time.under.an.alias.too.long.to.keep";

/** A tools/call as it left for the server, below every seam: the server's alias and the tool name it received. */
export interface ReceivedCall {
  readonly server: string;
  readonly tool: string;
}

export interface Session {
  readonly config: McpConfig;
  readonly mounted: MountedServers;
  readonly agent: Agent;
  /** Every time the gate said ask: which tool, with the verdict it gave before the hook approved. */
  readonly asked: Array<{ readonly tool: string; readonly verdict: Verdict }>;
  /** Every tools/call the servers of this session were sent, in order. */
  readonly received: ReceivedCall[];
}

export interface Fixture {
  readonly tickets: TicketsServer;
  readonly main: Session;
  /** The same config with tickets pointed at a port where nothing listens. */
  readonly isolated: Session;
  readonly seams: SelfTestSeams;
  close(): Promise<void>;
}

export interface FixtureOptions {
  readonly ticketsPort: number;
  readonly clientVersion: string;
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly seams?: SelfTestSeams;
  readonly onWarning?: (message: string) => void;
}

/** A port nothing listens on: bound once by us, then released. */
export async function emptyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port was assigned");
  return address.port;
}

/** `transport`, with `observe` shown each message before it is sent. */
export function observingSends(transport: Transport, observe: (message: JsonRpcMessage) => void): Transport {
  return {
    label: transport.label,
    cancellation: transport.cancellation,
    start: (handlers) => transport.start(handlers),
    send: (message, signal) => (observe(message), transport.send(message, signal)),
    close: () => transport.close(),
  };
}

/** Records each tools/call on its way to the server; the lab's wrappers go around it, so it sees what they send. */
function recordingCalls(transport: Transport, received: ReceivedCall[]): Transport {
  return observingSends(transport, (message) => {
    if ("method" in message && message.method === "tools/call" && "id" in message) {
      received.push({ server: transport.label, tool: String(message.params.name) });
    }
  });
}

function withRecording(seams: TransportSeams | undefined, received: ReceivedCall[]): TransportSeams {
  const outer = seams?.wrapTransport;
  return {
    ...seams,
    wrapTransport: (transport, spec) => {
      const recorded = recordingCalls(transport, received);
      return outer ? outer(recorded, spec) : recorded;
    },
  };
}

async function openSession(port: number, projectDir: string, options: FixtureOptions, mirrorNotes: boolean): Promise<Session> {
  const env = { ...options.baseEnv, TICKETS_PORT: String(port) };
  const shipped = parseMcpConfig(await readFile(SHIPPED_CONFIG, "utf8"), SHIPPED_CONFIG, env);
  if (shipped instanceof Error) throw shipped;
  const notes = shipped.servers.find((server) => server.alias === "notes");
  const config: McpConfig =
    mirrorNotes && notes !== undefined ? { ...shipped, servers: [...shipped.servers, { ...notes, alias: NOTES_MIRROR_ALIAS }] } : shipped;
  const seams = options.seams ?? {};
  const received: ReceivedCall[] = [];
  const mounted = await mountServers(config, {
    clientVersion: options.clientVersion,
    baseEnv: options.baseEnv,
    onWarning: options.onWarning ?? (() => undefined),
    seams: withRecording(seams.transport, received),
  });
  const asked: Session["asked"] = [];
  const agent = createAgent({
    model: createMockModel(),
    tools: seams.adaptTools ? seams.adaptTools(mounted.tools) : mounted.tools,
    findTool: mounted.findTool,
    rules: [],
    system: "mca self-test",
    approve: async ({ tool, decision }) => {
      asked.push({ tool: tool.name, verdict: decision.verdict });
      return "once";
    },
    // The state folder is the fixture's own temporary folder's, beside the project.
    snapshots: createSnapshotFiles({ projectDir, dir: `${projectDir}-state` }),
    transcript: { append: () => undefined },
    emit: () => undefined,
  });
  return { config, mounted, agent, asked, received };
}

export async function openFixture(options: FixtureOptions): Promise<Fixture> {
  const projectDir = await mkdtemp(join(tmpdir(), "mca-selftest-"));
  const tickets = await startTicketsServer({ port: options.ticketsPort });
  const sessions: Session[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(sessions.map((session) => session.mounted.close()));
    await tickets.close();
    await rm(projectDir, { recursive: true, force: true });
    await rm(`${projectDir}-state`, { recursive: true, force: true });
  };
  try {
    const [main, isolated] = await Promise.all([
      openSession(tickets.port, projectDir, options, true),
      emptyPort().then((port) => openSession(port, projectDir, options, false)),
    ]);
    sessions.push(main, isolated);
    return { tickets, main, isolated, seams: options.seams ?? {}, close };
  } catch (error) {
    await close();
    throw error;
  }
}
