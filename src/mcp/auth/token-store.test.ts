import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTokenStore, type StoredLogin } from "./token-store.js";

let folder: string | undefined;
afterEach(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

const LOGIN: StoredLogin = {
  serverUrl: "https://example.com/mcp",
  issuer: "https://auth.example.com",
  resource: "https://example.com/mcp",
  scope: "repo",
  tokens: { accessToken: "access-123456", refreshToken: "refresh-123456", expiresAt: 1_800_000_000_000 },
  clients: [{ issuer: "https://auth.example.com", clientId: "client-1" }],
};

async function storeInTemp() {
  folder = await mkdtemp(join(tmpdir(), "mca-tokens-"));
  const oauthFolder = join(folder, "mca", "oauth");
  return { oauthFolder, store: createTokenStore(oauthFolder) };
}

describe("createTokenStore", () => {
  it("saves a login readable by the user only, in a folder only the user can enter, and loads it back", async () => {
    const { oauthFolder, store } = await storeInTemp();
    await store.save(LOGIN);
    expect((await stat(oauthFolder)).mode & 0o777).toBe(0o700);
    expect((await stat(store.fileFor(LOGIN.serverUrl))).mode & 0o777).toBe(0o600);
    expect(await store.load(LOGIN.serverUrl)).toEqual({ ...LOGIN, clients: [{ ...LOGIN.clients[0], clientSecret: undefined, authMethod: undefined, redirectUri: undefined }], tokens: { ...LOGIN.tokens, scope: undefined } });
  });

  it("keeps each server URL in a file of its own, named without the URL", async () => {
    const { store } = await storeInTemp();
    await store.save(LOGIN);
    const other = "https://example.com/other";
    expect(store.fileFor(other)).not.toBe(store.fileFor(LOGIN.serverUrl));
    expect(store.fileFor(LOGIN.serverUrl)).not.toContain("example.com");
    expect(await store.load(other)).toEqual({ serverUrl: other, clients: [] });
  });

  it("drops the first-use binding an earlier version kept: where a configured secret goes is the config's to say", async () => {
    const { store } = await storeInTemp();
    await store.save(LOGIN);
    const file = store.fileFor(LOGIN.serverUrl);
    const earlier = { ...JSON.parse(await readFile(file, "utf8")), clientBinding: { clientId: "client-1", issuer: "https://evil.example" } };
    await writeFile(file, JSON.stringify(earlier));
    expect(Object.keys(await store.load(LOGIN.serverUrl))).not.toContain("clientBinding");
  });

  it("removes a login, saying whether there was one", async () => {
    const { store } = await storeInTemp();
    await store.save(LOGIN);
    expect(await store.remove(LOGIN.serverUrl)).toBe(true);
    expect(await readFile(store.fileFor(LOGIN.serverUrl)).catch(() => "gone")).toBe("gone");
    expect(await store.remove(LOGIN.serverUrl)).toBe(false);
  });
});
