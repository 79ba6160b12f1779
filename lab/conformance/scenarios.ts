// The official scenarios mca is held to, all at spec version 2026-07-28: the client ones run our driver
// (client.ts) against the suite's mock servers, the server ones run the suite against servers/tickets.ts.

export const SPEC_VERSION = "2026-07-28";

export const CLIENT_SCENARIOS: readonly string[] = [
  "tools_call",
  "request-metadata",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "sep-2322-client-request-state",
  "json-schema-ref-no-deref",
  "json-schema-2020-12-preservation",
  // MCP authorization (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization): the 25 scored `auth/*` scenarios, each against the suite's own
  // authorization server, which answers the authorization URL itself (client.ts follows it headlessly).
  ...[
    "metadata-default",
    "metadata-var1",
    "metadata-var2",
    "metadata-var3",
    "basic-cimd",
    "scope-from-www-authenticate",
    "scope-from-scopes-supported",
    "scope-omitted-when-undefined",
    "scope-step-up",
    "scope-retry-limit",
    "token-endpoint-auth-basic",
    "token-endpoint-auth-post",
    "token-endpoint-auth-none",
    "pre-registration",
    "resource-mismatch",
    "offline-access-scope",
    "offline-access-not-supported",
    "authorization-server-migration",
    "iss-supported",
    "iss-not-advertised",
    "iss-supported-missing",
    "iss-wrong-issuer",
    "iss-unexpected",
    "iss-normalized",
    "metadata-issuer-mismatch",
  ].map((name) => `auth/${name}`),
];

export const SERVER_SCENARIOS: readonly string[] = [
  "tools-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "caching",
  "sep-2164-resource-not-found",
  "input-required-result-unsupported-methods",
  "http-header-validation",
  "http-custom-header-server-validation",
  "server-stateless",
];
