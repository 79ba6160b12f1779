import { describe, expect, it } from "vitest";
import { ConfigError, type Env } from "./config-reader.js";
import { parseMcpConfig } from "./mcp-config.js";

const URL_ = "https://mcp.example.com/mcp";

/** The oauth of the one server read from a config, or the error its entry was skipped with. */
function oauthOf(oauth: Record<string, unknown>, env: Env = {}): unknown {
  const result = parseMcpConfig(JSON.stringify({ mcpServers: { s: { url: URL_, oauth } } }), "mcp.config.json", env);
  if (result instanceof ConfigError) throw new Error(result.message);
  const [server] = result.servers;
  if (server !== undefined) return server.transport === "stdio" ? undefined : server.oauth;
  const [skipped] = result.skipped;
  return { path: skipped?.error.path, detail: skipped?.error.detail };
}

describe("an HTTP server's oauth grant in the config", () => {
  it("reads client credentials with a private key file, and a DPoP key file, with ${VAR} expanded", () => {
    const oauth = { grant: "client_credentials", clientId: "svc", privateKeyFile: "${KEYS}/client.pem", dpopKeyFile: "/keys/dpop.pem" };
    expect(oauthOf(oauth, { KEYS: "/etc/mca" })).toEqual({
      clientId: "svc",
      grant: { kind: "client_credentials" },
      privateKeyFile: "/etc/mca/client.pem",
      dpopKeyFile: "/keys/dpop.pem",
    });
  });

  it("reads a workload identity token file and an enterprise identity provider", () => {
    expect(oauthOf({ grant: "jwt_bearer", clientId: "wl", assertionFile: "/var/run/secrets/token" })).toEqual({
      clientId: "wl",
      grant: { kind: "jwt_bearer", assertionFile: "/var/run/secrets/token" },
    });
    const idp = { tokenEndpoint: "https://idp.example.com/token", clientId: "idp-client", idTokenFile: "/home/u/.id-token" };
    expect(oauthOf({ grant: "token_exchange", clientId: "c", clientSecret: "s", idp })).toEqual({ clientId: "c", clientSecret: "s", grant: { kind: "token_exchange", idp } });
  });

  it("skips an entry whose grant lacks what it needs, or has what another grant takes, naming the place", () => {
    expect(oauthOf({ grant: "device_code", clientId: "c" })).toEqual({
      path: "mcpServers.s.oauth.grant",
      detail: "must be one of authorization_code, client_credentials, jwt_bearer, token_exchange",
    });
    expect(oauthOf({ grant: "client_credentials", clientId: "c" })).toEqual({ path: "mcpServers.s.oauth.grant", detail: '"client_credentials" needs a clientSecret or a privateKeyFile' });
    expect(oauthOf({ grant: "jwt_bearer", assertionFile: "/t" })).toEqual({ path: "mcpServers.s.oauth.grant", detail: '"jwt_bearer" needs a clientId' });
    expect(oauthOf({ clientId: "c", assertionFile: "/t" })).toEqual({ path: "mcpServers.s.oauth.assertionFile", detail: 'is only for "grant": "jwt_bearer"' });
    expect(oauthOf({ clientId: "c", clientSecret: "s", privateKeyFile: "/k.pem" })).toEqual({
      path: "mcpServers.s.oauth.privateKeyFile",
      detail: "takes the place of clientSecret: give one of them",
    });
  });

  it("takes key and token files only by absolute path, and an identity provider only over https (http on this machine)", () => {
    expect(oauthOf({ clientId: "c", dpopKeyFile: "keys/dpop.pem" })).toEqual({ path: "mcpServers.s.oauth.dpopKeyFile", detail: "dpopKeyFile must be an absolute path (after ${VAR} expansion)" });
    const idp = { tokenEndpoint: "http://idp.example.com/token", clientId: "i", idTokenFile: "/t" };
    expect(oauthOf({ grant: "token_exchange", clientId: "c", idp })).toEqual({
      path: "mcpServers.s.oauth.idp.tokenEndpoint",
      detail: "must be an https:// URL (http:// only on localhost, 127.x.x.x or [::1]) without query or fragment",
    });
  });
});
