// The declarations of `mca mcp add`, `add-json`, `remove`, `get` and `import` on the command line, after
// Claude Code's (https://code.claude.com/docs/en/mcp): `-s/--scope` (local by default), `-t/--transport`,
// `-e/--env` and `-H/--header` (each repeatable), `--` before a server's own arguments. Nothing runs here and
// nothing but commander is loaded: mcp-edit-commands.ts runs them.
import { Argument, Command, Option } from "commander";
import type { HostName, McpScope } from "../config/index.js";

/** Narrowest first, as the config folder's MCP_SCOPES (a test keeps them equal). */
export const SCOPES: readonly McpScope[] = ["local", "project", "user"];
/** As the config folder's HOST_NAMES (a test keeps them equal). */
export const HOSTS: readonly HostName[] = ["claude-code", "claude-desktop", "cursor", "vscode", "gemini", "codex", "windsurf"];

const TRANSPORTS = ["stdio", "http", "sse"] as const;
type TransportName = (typeof TRANSPORTS)[number];

export type McpEditCommand =
  | {
      readonly kind: "add";
      readonly scope: McpScope;
      readonly transport: TransportName | undefined;
      readonly name: string;
      readonly target: string;
      readonly args: readonly string[];
      readonly env: readonly string[];
      readonly headers: readonly string[];
    }
  | { readonly kind: "add-json"; readonly scope: McpScope; readonly name: string; readonly json: string }
  | { readonly kind: "remove"; readonly scope: McpScope | undefined; readonly name: string }
  | { readonly kind: "get"; readonly name: string }
  | { readonly kind: "import"; readonly host: HostName; readonly scope: McpScope; readonly yes: boolean };

const ADD_HELP = `
Examples:
  mca mcp add github -e GITHUB_TOKEN='\${GITHUB_TOKEN}' -- npx -y @modelcontextprotocol/server-github
  mca mcp add -s user -t http linear https://mcp.linear.app/mcp -H 'Authorization: Bearer \${LINEAR_TOKEN}'

Everything after -- is the server's own command line. For a secret, write a \${VAR} template (in single quotes, so
your shell leaves it alone): mca reads the variable when it starts the server, and the file never holds the secret.
A value given as it is gets written as it is, and is never shown again ([hidden]).
Scopes: local (this project, kept in your config folder), project (.mcp.json, shared with the repository), user (every project).
`;

function scopeOption(withDefault: boolean): Option {
  const option = new Option("-s, --scope <scope>", "local (this project, in your config folder), project (.mcp.json) or user (every project)").choices(SCOPES);
  return withDefault ? option.default("local") : option;
}

function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

function scopeOf(value: unknown): McpScope | undefined {
  return SCOPES.find((scope) => scope === value);
}

/** Declares the commands on `mca mcp`; each parsed command is handed to `take` (nothing runs while parsing). */
export function declareMcpEditCommands(mcp: Command, take: (command: McpEditCommand) => void): void {
  mcp
    .command("add <name> <commandOrUrl> [args...]")
    .description("add a server: a command to run (stdio), or with -t http|sse a URL")
    .addOption(scopeOption(true))
    .addOption(new Option("-t, --transport <transport>", "stdio (default), http or sse").choices(TRANSPORTS))
    .option("-e, --env <KEY=VALUE>", "an environment variable for a stdio server (repeatable)", collect, [])
    .option("-H, --header <'Name: value'>", "an HTTP header for an http or sse server (repeatable)", collect, [])
    .addHelpText("after", ADD_HELP)
    .action((name: string, target: string, args: readonly string[], _options: unknown, command: Command) => {
      const options = command.opts();
      const transport = TRANSPORTS.find((each) => each === options.transport);
      const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
      take({ kind: "add", scope: scopeOf(options.scope) ?? "local", transport, name, target, args, env: strings(options.env), headers: strings(options.header) });
    });
  mcp
    .command("add-json <name> <json>")
    .description("add a server from its JSON entry, as it would stand in mcpServers")
    .addOption(scopeOption(true))
    .action((name: string, json: string, _options: unknown, command: Command) => {
      take({ kind: "add-json", scope: scopeOf(command.opts().scope) ?? "local", name, json });
    });
  mcp
    .command("remove <name>")
    .description("remove a server (from the one scope that has it, or the scope named)")
    .addOption(scopeOption(false))
    .action((name: string, _options: unknown, command: Command) => {
      take({ kind: "remove", scope: scopeOf(command.opts().scope), name });
    });
  mcp
    .command("get <name>")
    .description("show a server's entry, its scope and file (secrets hidden)")
    .action((name: string) => {
      take({ kind: "get", name });
    });
  mcp
    .command("import")
    .addArgument(new Argument("<host>", "the host whose servers to add").choices(HOSTS))
    .description(`add the servers another host has configured (its user and project files), after showing them`)
    .addOption(scopeOption(true))
    .option("--yes", "add them without asking (needed without a terminal)")
    .action((host: string, _options: unknown, command: Command) => {
      const known = HOSTS.find((name) => name === host);
      if (known !== undefined) take({ kind: "import", host: known, scope: scopeOf(command.opts().scope) ?? "local", yes: command.opts().yes === true });
    });
}
