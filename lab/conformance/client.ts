// The thin client the official conformance runner spawns (`<command> <server url>`): mca's own MCP client
// over HTTP, doing for each scenario what mca does — discover, list, call — and nothing protocol-specific.
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWire, type McpClient, type Wire } from "../../src/mcp/index.js";
import { McpError } from "../../src/mcp/index.js";
import { createHeaderTable, createHttpTransport } from "../../src/mcp/index.js";
import { callToolToCompletion, type InputAnswer } from "../../src/mcp/index.js";
import { clientCapabilities, type InputSupport } from "../../src/mcp/index.js";
import { isJsonObject, type JsonObject } from "../../src/mcp/index.js";
import { negotiateEra } from "../../src/mcp/index.js";
import { createMemoryTokenStore, createOAuthSession, describeIssuer, generateSigningKey, type Authorizer, type OAuthSession, type OAuthSessionOptions } from "../../src/mcp/index.js";
import type { RemoteToolInfo } from "../../src/mcp/index.js";

/** mca's own version, read here rather than through src/cli: the driver needs only src/mcp. */
const PACKAGE_VERSION = ((): string => {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return isJsonObject(manifest) && typeof manifest.version === "string" ? manifest.version : "0.0.0";
})();

/** This driver answers form elicitations (automatically), so that is all it declares. */
const SUPPORT: InputSupport = { elicitationForm: true };

/** Runs once the server is mounted: `tools` is what mca would offer the model. */
type Scenario = (client: McpClient, tools: readonly RemoteToolInfo[], context: JsonObject) => Promise<void>;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function toolNamed(tools: readonly RemoteToolInfo[], name: string): RemoteToolInfo {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`the server listed no tool ${JSON.stringify(name)}`);
  return tool;
}

async function call(client: McpClient, name: string, args: JsonObject): Promise<void> {
  const outcome = await client.callTool(name, args);
  log(`${name}: ${JSON.stringify(outcome)}`);
}

/** A scripted user: accepts every form, setting each boolean field to true. */
const acceptForms: InputAnswer = async (requests) => {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (request.kind !== "elicit-form") return { abandon: `${key}: only forms are answered here` };
    const properties = isJsonObject(request.requestedSchema.properties) ? request.requestedSchema.properties : {};
    const content: JsonObject = {};
    for (const [field, schema] of Object.entries(properties)) {
      if (isJsonObject(schema) && schema.type === "boolean") content[field] = true;
    }
    responses[key] = { action: "accept", content };
  }
  return responses;
};

async function callToCompletion(client: McpClient, name: string, answer: InputAnswer = acceptForms): Promise<void> {
  const outcome = await callToolToCompletion((...a) => client.callTool(...a), name, {}, { answer, support: SUPPORT });
  if (outcome instanceof McpError) throw outcome;
  log(`${name}: ${JSON.stringify(outcome)}`);
}

function contextToolCalls(context: JsonObject): Array<{ name: string; args: JsonObject }> {
  const toolCalls = Array.isArray(context.toolCalls) ? context.toolCalls : [];
  return toolCalls.flatMap((entry: unknown) =>
    isJsonObject(entry) && typeof entry.name === "string" ? [{ name: entry.name, args: isJsonObject(entry.arguments) ? entry.arguments : {} }] : [],
  );
}

function firstString(list: unknown, key: string): string {
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  const value = isJsonObject(first) ? first[key] : undefined;
  if (typeof value !== "string") throw new Error(`the list has no first item with a ${key}`);
  return value;
}

/** A user who accepts every form as it stands: what they did not fill in is left for the client's defaults (SEP-1034). */
const acceptAsShown: InputAnswer = async (requests) => {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (request.kind !== "elicit-form") return { abandon: `${key}: only forms are answered here` };
    responses[key] = { action: "accept", content: {} };
  }
  return responses;
};

/** Mounting is all mca does here: it has no skills extension (SEP-2640), so it never lists or reads a skill. */
const MOUNT_ONLY: Scenario = async () => undefined;

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  initialize: MOUNT_ONLY,
  "sep-2640-client-no-prefetch": MOUNT_ONLY,
  "sep-2640-client-verify-digest": MOUNT_ONLY,
  "sep-2640-client-verify-size": MOUNT_ONLY,
  "sep-2640-client-verify-frontmatter": MOUNT_ONLY,
  "sse-retry": async (client, tools) => {
    await call(client, toolNamed(tools, "test_reconnection").name, {});
  },
  "elicitation-sep1034-client-defaults": async (client, tools) => {
    await callToCompletion(client, toolNamed(tools, "test_client_elicitation_defaults").name, acceptAsShown);
  },
  tools_call: async (client, tools) => {
    toolNamed(tools, "add_numbers");
    await call(client, "add_numbers", { a: 2, b: 3 });
  },
  // Mounting is the whole scenario: the first request is refused with -32022, and mca carries on.
  "request-metadata": async () => undefined,
  "http-standard-headers": async (client, tools) => {
    const [tool] = tools;
    if (tool === undefined) throw new Error("the server listed no tools");
    await call(client, tool.name, {});
    const { resources } = await client.request("resources/list");
    await client.request("resources/read", { uri: firstString(resources, "uri") });
    const { prompts } = await client.request("prompts/list");
    await client.request("prompts/get", { name: firstString(prompts, "name") });
  },
  "http-custom-headers": async (client, _tools, context) => {
    for (const { name, args } of contextToolCalls(context)) await call(client, name, args);
  },
  "http-invalid-tool-headers": async (client, tools) => {
    // mca drops (with a warning) every tool whose x-mcp-header declarations are invalid; the rest stay callable.
    log(`usable tools: ${tools.map((tool) => tool.name).join(", ")}`);
    await call(client, toolNamed(tools, "valid_tool").name, { region: "us-west1" });
  },
  "sep-2322-client-request-state": async (client) => {
    // An unrelated call made while the first call's answers are being gathered must not carry them.
    await callToCompletion(client, "test_mrtr_echo_state", async (requests, ask) => {
      await call(client, "test_mrtr_unrelated", {});
      return acceptForms(requests, ask);
    });
    await callToCompletion(client, "test_mrtr_no_state");
    await callToCompletion(client, "test_mrtr_no_result_type");
  },
  "json-schema-ref-no-deref": async (_client, tools) => {
    log(`listed: ${JSON.stringify(tools)}`);
  },
  "json-schema-2020-12-preservation": async (client, tools) => {
    const focal = toolNamed(tools, "json_schema_2020_12_tool");
    await call(client, toolNamed(tools, "json_schema_echo").name, { schema: focal.inputSchema });
  },
};

/** Every `auth/*` scenario: mount (the login happens on the first 401), then call the first tool. */
const AUTH_SCENARIO: Scenario = async (client, tools) => {
  const [tool] = tools;
  if (tool === undefined) throw new Error("the server listed no tools");
  await call(client, tool.name, {});
};

/** The suite's client metadata document URL: the one its `auth/basic-cimd` scenario expects as client_id. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The suite's authorization servers answer the authorization URL themselves with a redirect carrying the
 * code, so the "browser" here follows it without a listener: the redirect URI is only ever read, not served.
 */
const headlessAuthorizer: Authorizer = {
  redirectUri: "http://127.0.0.1:8976/callback",
  async visit(authorizationUrl) {
    const response = await fetch(authorizationUrl, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    return new URL(location, authorizationUrl);
  },
};

/** The files a user's config would name (keys, token files), written from the scenario's context; removed at exit. */
async function configFiles(): Promise<{ readonly write: (name: string, text: string) => Promise<string>; readonly remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "mca-conformance-"));
  return {
    write: async (name, text) => {
      const file = join(dir, name);
      await writeFile(file, text, { mode: 0o600 });
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

function text(context: JsonObject, key: string): string | undefined {
  const value = context[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * The server's `oauth` config a user would write for each extension scenario (docs/oauth.md): the grant,
 * and the files it reads. Every other `auth/*` scenario is the browser login.
 */
async function extensionConfig(name: string, context: JsonObject, files: Awaited<ReturnType<typeof configFiles>>): Promise<Partial<OAuthSessionOptions>> {
  switch (name) {
    case "auth/client-credentials-basic":
      return { grant: { kind: "client_credentials" } };
    case "auth/client-credentials-jwt":
      return { grant: { kind: "client_credentials" }, privateKeyFile: await files.write("client-key.pem", text(context, "private_key_pem") ?? "") };
    case "auth/wif-jwt-bearer":
      return { grant: { kind: "jwt_bearer", assertionFile: await files.write("workload-token", text(context, "valid_jwt") ?? "") } };
    case "auth/enterprise-managed-authorization": {
      const idTokenFile = await files.write("id-token", text(context, "idp_id_token") ?? "");
      return { grant: { kind: "token_exchange", idp: { tokenEndpoint: text(context, "idp_token_endpoint") ?? "", clientId: text(context, "idp_client_id") ?? "", idTokenFile } } };
    }
    case "auth/dpop":
    case "auth/dpop-nonce":
      return { dpopKeyFile: await files.write("dpop-key.pem", generateSigningKey().pem) };
    default:
      return {};
  }
}

async function oauthSession(url: string, name: string, context: JsonObject, files: Awaited<ReturnType<typeof configFiles>>): Promise<OAuthSession> {
  const clientId = text(context, "client_id");
  const clientSecret = text(context, "client_secret");
  // The suite's authorization server listens on another port than its MCP server: a pre-registered client's
  // secret goes there only because the scenario names it, as a user's `oauth.issuer` would.
  const issuer = text(context, "issuer");
  return createOAuthSession({
    label: "conformance",
    serverUrl: url,
    store: createMemoryTokenStore(),
    client: { clientId, clientSecret, issuer, clientMetadataUrl: CLIENT_METADATA_URL, clientName: "mca conformance client" },
    authorizer: headlessAuthorizer,
    // Where the scenario names no issuer, the scripted user agrees when mca asks before a credential goes to
    // an authorization server on another origin (the suite's listens on another port).
    confirmIssuer: async (question) => {
      log(`asked: ${describeIssuer(question)}; answered yes`);
      return true;
    },
    ...(await extensionConfig(name, context, files)),
  });
}

function readContext(text: string | undefined): JsonObject {
  if (text === undefined || text === "") return {};
  const value: unknown = JSON.parse(text);
  return isJsonObject(value) ? value : {};
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const name = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const scenario = name.startsWith("auth/") ? AUTH_SCENARIO : SCENARIOS[name];
  if (url === undefined || !/^https?:/.test(url) || scenario === undefined) {
    log(`usage: MCP_CONFORMANCE_SCENARIO=<one of ${Object.keys(SCENARIOS).join(", ")}> client.ts <server url>`);
    return 2;
  }
  const context = readContext(process.env.MCP_CONFORMANCE_CONTEXT);
  // One login for the whole run: the era negotiation may open more than one connection.
  const files = await configFiles();
  const auth = name.startsWith("auth/") ? await oauthSession(url, name, context, files) : undefined;
  let wire: Wire | undefined;
  let mounted: McpClient | undefined;
  const open = async (): Promise<Wire> => {
    await wire?.close();
    // A legacy server's notifications/initialized names no version of its own: the header is the version the
    // client tells the table, and so are the `x-mcp-header` values of a call.
    const headerTable = createHeaderTable();
    const transport = createHttpTransport({ label: "conformance", url, headerTable, auth });
    wire = createWire({
      transport,
      headerTable,
      clientVersion: PACKAGE_VERSION,
      capabilities: clientCapabilities(SUPPORT),
      // A legacy server asks in the middle of a call (elicitation/create): the same scripted user answers.
      inputResponder: { support: SUPPORT, answer: name === "elicitation-sep1034-client-defaults" ? acceptAsShown : acceptForms },
      onWarning: (message) => log(`warning: ${message}`),
    });
    await wire.start();
    return wire;
  };
  try {
    // What mca does when it mounts a server: settle its era (server/discover), then list every page of tools.
    mounted = (await negotiateEra(open, { transport: "http" })).client;
    await scenario(mounted, await mounted.listTools(), context);
    return 0;
  } catch (error) {
    log(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await (mounted === undefined ? wire?.close() : mounted.close());
    await files.remove();
  }
}

process.exitCode = await main();
