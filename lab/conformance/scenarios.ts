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
