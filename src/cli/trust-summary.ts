// What the trust question shows: everything trusting the folder would let its files do. Each server's command
// and arguments or URL, cwd, inheritEnv, and each env and header value as its template (`${GITHUB_TOKEN}`
// is not a secret; its value is), with a warning when a template names a credential; the project files a
// server runs; each allow rule; every other settings key that widens (SETTINGS_KEYS), with its value. Every
// word comes from the repository, so each is printed through untrustedText.
import {
  mcpConfigAsWritten,
  PROJECT_MCP_CONFIG,
  PROJECT_SETTINGS,
  PROJECT_SHARED_MCP_CONFIG,
  projectFileRead,
  referencedVariables,
  settingsAsWritten,
  type ClassifiedSetting,
  type ProjectFiles,
  type ProjectProgram,
} from "../config/index.js";
import type { HttpServerConfig, McpServerConfig, StdioServerConfig } from "../mcp/index.js";
import { untrustedText } from "./untrusted-text.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface TrustSummary {
  readonly lines: readonly string[];
  /** How many servers would start, allow rules would apply and other settings keys would widen. */
  readonly widens: number;
  /** Why each project file that cannot be read cannot be: such files are never offered for trust. */
  readonly unreadable: readonly string[];
}

/**
 * Variable names that hold credentials by convention (`*` stands for any text at that end), matched without
 * regard to case: a template naming one hands that credential to the server.
 */
const CREDENTIAL_VARIABLES: readonly string[] = [
  "ANTHROPIC_*",
  "OPENAI_*",
  "AWS_*",
  "AZURE_*",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "SSH_AUTH_SOCK",
  "*TOKEN",
  "*_KEY",
  "*SECRET",
  "*PASSWORD",
  "*PASSWD",
  "*CREDENTIALS",
];

function isCredentialVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return CREDENTIAL_VARIABLES.some((glob) => {
    if (glob.startsWith("*")) return upper.endsWith(glob.slice(1));
    if (glob.endsWith("*")) return upper.startsWith(glob.slice(0, -1));
    return upper === glob;
  });
}

export function summarise(files: ProjectFiles, deps: { readonly env: Env; readonly mcpConfigFlag: string | undefined }): TrustSummary {
  const lines = [`This folder has its own mca configuration: ${untrustedText(files.projectDir)}`];
  const unreadable: string[] = [];
  let widens = 0;
  // Both project files of MCP servers (mca's own and Claude Code's .mcp.json); shown with --mcp-config too:
  // the trust recorded covers the files, and they take effect in the next run without the flag.
  for (const name of [PROJECT_MCP_CONFIG, PROJECT_SHARED_MCP_CONFIG]) {
    const config = projectFileRead(files, name);
    if (config === null) continue;
    const parsed = config.text instanceof Error ? config.text : mcpConfigAsWritten(config.text, config.path, deps.env);
    if (parsed instanceof Error) {
      lines.push(`  ${name} cannot be read: ${untrustedText(parsed.message)}`);
      unreadable.push(parsed.message);
    } else {
      const enabled = parsed.servers.filter((server) => server.enabled);
      widens += enabled.length;
      const notNow = deps.mcpConfigFlag === undefined ? "" : " (not in this run: --mcp-config replaces it)";
      lines.push(`  ${name} would start ${enabled.length === 0 ? "no servers" : "these MCP servers"}${notNow}${enabled.length === 0 ? "" : ":"}`);
      for (const server of enabled) lines.push(...describeServer(server, files.programs).map((line) => `    ${line}`));
    }
  }
  const settings = projectFileRead(files, PROJECT_SETTINGS);
  if (settings !== null) {
    const parsed = settings.text instanceof Error ? settings.text : settingsAsWritten(settings.text, settings.path);
    if (parsed instanceof Error) {
      lines.push(`  ${PROJECT_SETTINGS} cannot be read: ${untrustedText(parsed.message)}`);
      unreadable.push(parsed.message);
    } else {
      const { allows, widening } = parsed;
      widens += allows.length + widening.length;
      lines.push(`  ${PROJECT_SETTINGS} would allow without asking ${allows.length === 0 ? "nothing" : "these calls:"}`);
      for (const rule of allows) lines.push(`    ${untrustedText(rule.pattern.text)}`);
      if (widening.length > 0) lines.push(`  ${PROJECT_SETTINGS} would set:`, ...widening.map((key) => `    ${describeSetting(key)}`));
      lines.push("  (its deny and ask rules apply whether or not you trust it)");
    }
  }
  return { lines, widens, unreadable };
}

const shown = (text: string): string => untrustedText(JSON.stringify(text));

/** The most of one settings value the trust question shows; a longer one is cut, saying so. */
export const MAX_SHOWN_SETTING_CHARS = 200;

/** `sandbox.network: true`; a key mca does not know says so, since it widens for that reason alone. */
function describeSetting(key: ClassifiedSetting): string {
  const characters = [...key.value];
  const value = characters.length > MAX_SHOWN_SETTING_CHARS ? `${characters.slice(0, MAX_SHOWN_SETTING_CHARS).join("")}… (${characters.length} characters)` : key.value;
  return untrustedText(`${key.path}: ${value}${key.known ? "" : " (a key this mca does not know: it counts as widening)"}`);
}

/** The server's first line, then its details indented below it. */
function describeServer(server: McpServerConfig, programs: readonly ProjectProgram[]): string[] {
  const { head, details, templates } = serverParts(server);
  const own = programs.filter((program) => program.alias === server.alias);
  const credentials = [...new Set(templates.flatMap(referencedVariables))].filter(isCredentialVariable);
  return [
    `${untrustedText(server.alias)} (${server.transport}): ${head}`,
    ...[
      ...details,
      ...own.map((program) =>
        program.hashed
          ? `runs from the project, hashed (a change asks again): ${shown(program.path)}`
          : `runs from the project, too large to hash (its later changes are not asked about): ${shown(program.path)}`,
      ),
      ...(credentials.length === 0 ? [] : [`warning: hands this server your credentials: ${credentials.map(untrustedText).join(", ")}`]),
    ].map((line) => `  ${line}`),
  ];
}

interface ServerParts {
  readonly head: string;
  readonly details: readonly string[];
  /** Every string of the server that `${VAR}` is expanded in, as written. */
  readonly templates: readonly string[];
}

function serverParts(server: McpServerConfig): ServerParts {
  switch (server.transport) {
    case "stdio":
      return stdioParts(server);
    case "http":
    case "sse":
      return httpParts(server);
    default: {
      const unknown: never = server;
      throw new Error(`unknown server ${JSON.stringify(unknown)}`);
    }
  }
}

function stdioParts(server: StdioServerConfig): ServerParts {
  const env = Object.entries(server.env);
  return {
    head: [server.command, ...server.args].map(shown).join(" "),
    details: [
      ...(server.cwd === undefined ? [] : [`cwd: ${shown(server.cwd)}`]),
      ...(server.inheritEnv === true ? ["inheritEnv: true (it gets your whole environment, the model's keys excepted)"] : []),
      ...(server.pidNamespace === false ? ["pidNamespace: false (it can see your other processes, and mca's environment with the API key)"] : []),
      ...env.map(([name, value]) => `env ${untrustedText(name)}=${shown(value)}`),
    ],
    templates: [server.command, ...server.args, ...env.map(([, value]) => value)],
  };
}

function httpParts(server: HttpServerConfig): ServerParts {
  const headers = Object.entries(server.headers);
  const { oauth } = server;
  const oauthFields = [
    ...(oauth?.clientId === undefined ? [] : [`clientId ${shown(oauth.clientId)}`]),
    ...(oauth?.clientSecret === undefined ? [] : [`clientSecret ${shown(oauth.clientSecret)}`]),
    ...(oauth?.issuer === undefined ? [] : [`issuer ${shown(oauth.issuer)}`]),
    ...(oauth?.scopes === undefined ? [] : [`scopes ${oauth.scopes.map(shown).join(" ")}`]),
    ...(oauth?.callbackPort === undefined ? [] : [`callbackPort ${oauth.callbackPort}`]),
    // A machine grant sends what the files it names hold: the trust question names them.
    ...(oauth?.grant === undefined ? [] : [`grant ${shown(oauth.grant.kind)}`]),
    ...(oauth?.grant?.kind === "jwt_bearer" ? [`assertionFile ${shown(oauth.grant.assertionFile)}`] : []),
    ...(oauth?.grant?.kind === "token_exchange" ? [`idp ${shown(oauth.grant.idp.tokenEndpoint)}`, `idTokenFile ${shown(oauth.grant.idp.idTokenFile)}`] : []),
    ...(oauth?.privateKeyFile === undefined ? [] : [`privateKeyFile ${shown(oauth.privateKeyFile)}`]),
    ...(oauth?.dpopKeyFile === undefined ? [] : [`dpopKeyFile ${shown(oauth.dpopKeyFile)}`]),
  ];
  return {
    head: shown(server.url),
    details: [
      ...headers.map(([name, value]) => `header ${untrustedText(name)}: ${shown(value)}`),
      ...(oauth === undefined ? [] : [`oauth: ${oauthFields.length === 0 ? "(a login when the server asks)" : oauthFields.join(", ")}`]),
    ],
    templates: [server.url, ...headers.map(([, value]) => value), ...[oauth?.clientId, oauth?.clientSecret, oauth?.issuer, ...(oauth?.scopes ?? [])].filter((text) => text !== undefined)],
  };
}
