// One third-party server mounted for a whole describe block: a temporary folder, the server started, the
// official SDK client's tool list taken as the reference, the config mounted; all undone in afterAll.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { mountConfig, type MountedConfig } from "./mount-config.js";
import { referenceTools, type ReferenceTarget, type ReferenceTool } from "./reference-tools.js";
import type { NodeCommand } from "./third-party-servers.js";

/** The server as an `mcpServers` entry, the same server as the SDK client reaches it, and what stops it. */
export interface SuiteServer {
  readonly entry: Readonly<Record<string, unknown>>;
  readonly reference: ReferenceTarget;
  close(): Promise<void>;
}

export interface SuiteMountOptions {
  /** The temporary folder's name prefix. */
  readonly folderPrefix: string;
  /** The `mcpServers` key the server is mounted under. */
  readonly alias: string;
  /** Starts (or describes) the server; `folder` is the suite's fresh temporary folder. */
  start(folder: string): Promise<SuiteServer>;
}

export interface SuiteMount {
  folder(): string;
  mounted(): MountedConfig;
  reference(): ReferenceTool[];
}

/** A server that mca and the SDK client each launch for themselves; nothing to stop beyond what they close. */
export function stdioSuiteServer(command: NodeCommand): SuiteServer {
  return { entry: { ...command }, reference: { kind: "stdio", ...command }, close: async () => undefined };
}

/** A server already listening at `url`, stopped by `close`. */
export function httpSuiteServer(server: { readonly url: string; close(): Promise<void> }): SuiteServer {
  return { entry: { type: "http", url: server.url }, reference: { kind: "http", url: server.url }, close: () => server.close() };
}

/** Registers the suite's beforeAll and afterAll; the accessors are for use inside its `it` blocks. */
export function mountForSuite(options: SuiteMountOptions): SuiteMount {
  let folder = "";
  let mount: MountedConfig | undefined;
  let reference: ReferenceTool[] = [];
  let stopServer: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), options.folderPrefix));
    const server = await options.start(folder);
    stopServer = () => server.close();
    reference = await referenceTools(server.reference);
    mount = await mountConfig(folder, { [options.alias]: server.entry });
  });

  afterAll(async () => {
    await mount?.mounted.close();
    await stopServer();
    await rm(folder, { recursive: true, force: true });
  });

  return {
    folder: () => folder,
    mounted: () => {
      if (mount === undefined) throw new Error("the server was not mounted");
      return mount;
    },
    reference: () => reference,
  };
}
