// Where a login lasts: one file per server URL in the user's config folder (`<folder>/oauth/<sha256>.json`,
// folder 0700, file 0600), never in a project. It holds the tokens and the client identities, the latter
// keyed by issuer so that one authorization server's credentials are never shown to another.
import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isJsonObject } from "../jsonrpc.js";
import type { ClientIdentity, TokenSet } from "./authorization.js";

export type StoredLogin = {
  readonly serverUrl: string;
  /** The issuer and resource the tokens were issued by and for. */
  readonly issuer?: string;
  readonly resource?: string;
  readonly scope?: string;
  readonly tokens?: TokenSet;
  readonly clients: readonly ClientIdentity[];
};

export interface TokenStore {
  load(serverUrl: string): Promise<StoredLogin>;
  save(login: StoredLogin): Promise<void>;
  /** Removes the server's file; true when there was one. */
  remove(serverUrl: string): Promise<boolean>;
  /** The file a server's login lives in (shown to the user, never its content). */
  fileFor(serverUrl: string): string;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function readTokens(value: unknown): TokenSet | undefined {
  if (!isJsonObject(value) || typeof value.accessToken !== "string") return undefined;
  return {
    accessToken: value.accessToken,
    refreshToken: optionalString(value.refreshToken),
    expiresAt: typeof value.expiresAt === "number" ? value.expiresAt : undefined,
    scope: optionalString(value.scope),
    ...(typeof value.tokenType === "string" ? { tokenType: value.tokenType } : {}),
  };
}

function readClients(value: unknown): ClientIdentity[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) =>
    isJsonObject(entry) && typeof entry.issuer === "string" && typeof entry.clientId === "string"
      ? [{ issuer: entry.issuer, clientId: entry.clientId, clientSecret: optionalString(entry.clientSecret), authMethod: optionalString(entry.authMethod), redirectUri: optionalString(entry.redirectUri) }]
      : [],
  );
}

/** A store in `folder` (the CLI passes `<user config folder>/oauth`). */
export function createTokenStore(folder: string): TokenStore {
  const fileFor = (serverUrl: string): string => join(folder, `${createHash("sha256").update(serverUrl).digest("hex").slice(0, 32)}.json`);
  return {
    fileFor,
    async load(serverUrl) {
      const text = await readFile(fileFor(serverUrl), "utf8").catch(() => undefined);
      let value: unknown;
      try {
        value = text === undefined ? undefined : JSON.parse(text);
      } catch {
        value = undefined;
      }
      // A file for another URL (a hash clash) or a damaged one counts as no login at all.
      if (!isJsonObject(value) || value.serverUrl !== serverUrl) return { serverUrl, clients: [] };
      return {
        serverUrl,
        issuer: optionalString(value.issuer),
        resource: optionalString(value.resource),
        scope: optionalString(value.scope),
        tokens: readTokens(value.tokens),
        // A `clientBinding` kept by earlier versions (bound on first use) is not read: secretDestination decides now.
        clients: readClients(value.clients),
      };
    },
    async save(login) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const file = fileFor(login.serverUrl);
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
      // The mode given at creation passes the umask; chmod makes it exact whatever the umask.
      await chmod(temporary, 0o600);
      await rename(temporary, file);
    },
    async remove(serverUrl) {
      const file = fileFor(serverUrl);
      const existed = (await readFile(file).catch(() => undefined)) !== undefined;
      await rm(file, { force: true });
      return existed;
    },
  };
}

/** An in-memory store: the conformance driver's and the tests', where nothing must touch the disk. */
export function createMemoryTokenStore(): TokenStore {
  const logins = new Map<string, StoredLogin>();
  return {
    fileFor: (serverUrl) => `(memory) ${serverUrl}`,
    load: (serverUrl) => Promise.resolve(logins.get(serverUrl) ?? { serverUrl, clients: [] }),
    save: (login) => {
      logins.set(login.serverUrl, login);
      return Promise.resolve();
    },
    remove: (serverUrl) => Promise.resolve(logins.delete(serverUrl)),
  };
}
