// The command line, parsed once by commander into a typed Invocation (nothing runs here, so runInvocation
// decides what to load for each path), and mca's own version.
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { OUTPUT_FORMATS, type OutputFormat } from "./headless-output.js";
import { declareMcpEditCommands, type McpEditCommand } from "./mcp-edit-program.js";
import { collect, positiveAmount, positiveInteger, sessionIdArgument, splitToolList, stringList, stringOption } from "./option-values.js";

export interface CommonOptions {
  /** `--mcp-config <file>`, repeatable: the files this run's MCP servers are read from instead of the scopes. */
  readonly mcpConfigs: readonly string[];
  /** `--strict-mcp-config`: only the servers of `--mcp-config` (none without it), as Claude Code's flag. */
  readonly strictMcpConfig?: true;
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  /** `--allowedTools` / `--disallowedTools`: Claude Code's rules as written, one a word (claude-rules.ts maps them). */
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  /** `--permission-mode` (or `--dangerously-skip-permissions`); absent: default. */
  readonly permissionMode?: PermissionMode;
  /** `--system-prompt` / `--append-system-prompt` and their `-file` forms (system-prompt.ts). */
  readonly systemPrompt?: PromptText;
  readonly appendSystemPrompt?: PromptText;
  readonly model: string | undefined;
  /** `--resume`: continue an earlier session; `resumeId` names it, else the newest chat session. */
  readonly resume: boolean;
  readonly resumeId: string | undefined;
  /** `-c`/`--continue`: the session to go on with is the newest of any mode (`--resume` alone takes the newest chat). */
  readonly continueNewest?: true;
  /** `--input-responses <file>`: prepared answers to MCP servers' form elicitations (input/answers-file.ts). */
  readonly inputResponses: string | undefined;
  /** `--trust-project`: apply the project's own mcp.config.json and allow rules for this run without asking. */
  readonly trustProject: boolean;
  /** `--no-sandbox`: bash runs outside the operating-system sandbox for this run. */
  readonly noSandbox?: true;
  /** `--verbose`: every log message of the MCP servers shown as it comes (else from warnings on; `/mcp logs` has the rest). */
  readonly verbose?: true;
  /** `--max-turns <n>`: model turns per prompt before it stops (over the settings' `maxTurns`). */
  readonly maxTurns?: number;
  /** `--max-budget-usd <x>`: US dollars one prompt may spend, estimated (over the settings' `maxBudgetUsd`). */
  readonly maxBudgetUsd?: number;
}

/** Claude Code's permission modes (permission-mode.ts gives each its rules). */
export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions";
export const PERMISSION_MODES: readonly PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions"];

/** A text given on the command line, or the file to read it from. */
export type PromptText = { readonly kind: "text"; readonly text: string } | { readonly kind: "file"; readonly path: string };

/** `--input-format`: prompts as plain text, or (with stream-json output) as Claude Code's user messages, one JSON line each. */
export type InputFormat = "text" | "stream-json";
export const INPUT_FORMATS: readonly InputFormat[] = ["text", "stream-json"];

export type Invocation =
  | {
      readonly kind: "session";
      readonly options: CommonOptions;
      /** `-p`: one prompt, its answer printed, then exit. */
      readonly print: boolean;
      /** `-p "<prompt>"` or `mca "<prompt>"` (the chat's first prompt); none: `-p` takes stdin as its prompt. */
      readonly prompt: string | undefined;
      readonly outputFormat: OutputFormat;
      /** Present only as stream-json: each line of stdin a user message, answered in turn in one session. */
      readonly inputFormat?: "stream-json";
      /** `--include-partial-messages`: stream-json adds the model's stream deltas as `stream_event` lines. */
      readonly includePartialMessages?: true;
      /** `--mca-events`: stream-json adds mca's own event lines. */
      readonly mcaEvents?: true;
      /** `--output-schema <file.json>`: the final message must be JSON valid against it. */
      readonly outputSchemaFile?: string;
    }
  | { readonly kind: "tools"; readonly options: CommonOptions; readonly json: boolean }
  | { readonly kind: "call"; readonly options: CommonOptions; readonly tool: string; readonly args: string | undefined; readonly json: boolean }
  | { readonly kind: "mcp-list"; readonly options: CommonOptions; readonly json: boolean }
  /** `mca context`: what the next model request would carry, in tokens. */
  | { readonly kind: "context"; readonly options: CommonOptions; readonly json: boolean }
  /** `mca mcp doctor [alias]`: start the servers (or the one named) and lint their tool definitions. */
  | { readonly kind: "mcp-doctor"; readonly options: CommonOptions; readonly alias: string | undefined; readonly json: boolean }
  /** `mca mcp login <alias>` / `mca mcp logout <alias>`: an HTTP server's MCP authorization. */
  | { readonly kind: "mcp-login"; readonly options: CommonOptions; readonly alias: string }
  | { readonly kind: "mcp-logout"; readonly options: CommonOptions; readonly alias: string }
  /** `mca mcp pin <alias>` or `--all`: record the servers' tool definitions as they are now; `mca mcp unpin <alias>`. */
  | { readonly kind: "mcp-pin"; readonly options: CommonOptions; readonly alias: string | undefined; readonly all: boolean }
  | { readonly kind: "mcp-unpin"; readonly options: CommonOptions; readonly alias: string }
  /** `mca mcp add | add-json | remove | get | import`: the scope files edited (mcp-edit-commands.ts). */
  | { readonly kind: "mcp-edit"; readonly command: McpEditCommand }
  | { readonly kind: "trust"; readonly options: CommonOptions }
  | { readonly kind: "sessions"; readonly json: boolean }
  /** Help or version was printed, or the arguments were wrong (commander already said why on stderr). */
  | { readonly kind: "exit"; readonly code: number };

export interface ProgramOutput {
  readonly writeOut: (text: string) => void;
  readonly writeErr: (text: string) => void;
}

export const USAGE_EXIT_CODE = 2;

/**
 * NO_COLOR (no-color.org) for the one dependency that does not read it: the question prompts colour through
 * kleur, which reads NODE_DISABLE_COLORS once, when it is first loaded. So this runs before anything loads it.
 */
export function honourNoColor(env: NodeJS.ProcessEnv): void {
  if ((env.NO_COLOR ?? "") !== "") env.NODE_DISABLE_COLORS = "1";
}

/** The model used when neither --model nor MCA_MODEL names one (the Anthropic model module agrees, by test). */
export const DEFAULT_MODEL_NAME = "claude-sonnet-5-5";

/** What `mca --help` says beyond the options: modes, slash commands, environment, exit codes. */
const MAIN_HELP = `
Modes:
  mca                 the chat when stdin is a terminal; pipe mode otherwise (one prompt or slash
                      command per line, plain text out)
  mca "<prompt>"      the chat, starting with that prompt (without a terminal: as -p)
  mca -p "<prompt>"   one prompt, the answer printed, then exit; text piped in is given with it
  mca -p              the prompt is what is piped in (cat question.txt | mca -p)
  mca --resume [id]   continue the newest chat session, or the one with this id (\`mca sessions\`)
  mca -p -r <id> "<prompt>"   that prompt in that session; -c -p "<prompt>": in the newest session
  mca -p --input-format stream-json --output-format stream-json
                      user messages as JSON lines on stdin, each answered in turn, one session

Slash commands (chat and pipe mode):
  /help /tools /approvals /call <tool> <json> /undo /last /cost /status /context /model <name> /compact /clear /mcp /exit

Environment:
  ANTHROPIC_API_KEY   talk to Claude (without it the chat offers the offline mock model and says so;
                      -p and pipe mode exit 2)
  ANTHROPIC_BASE_URL  another Messages API endpoint
  MCA_MODEL           the model (default ${DEFAULT_MODEL_NAME}); --model wins over it
  MOCK=1              the offline mock model, even with a key
  MCA_MOCK_SCRIPT     a file of scripted model turns (for tests)
  NO_COLOR            no colours
  SELFTEST=1          run the 14 self-test assertions against the demo servers (TICKETS_PORT: their port)

Exit status:
  0 success; 1 a call failed or was denied, or a line of pipe mode failed; 2 a usage or configuration
  error; 130 interrupted (Ctrl-C); 141 the reader closed mca's output; 143 SIGTERM; 129 SIGHUP
`;

export async function parseInvocation(argv: readonly string[], version: string, output: ProgramOutput): Promise<Invocation> {
  let invocation: Invocation | undefined;
  const program = new Command("mca")
    .description("A small terminal coding agent with a hand-written MCP client (2026-07-28).")
    .version(version)
    .argument("[prompt...]", "the chat's first prompt (with -p: the prompt)")
    .option("-p, --print [prompt]", "run one prompt (or slash command) without a terminal, print the answer, exit; piped text is given with it, or is the prompt")
    .addOption(
      new Option("--output-format <format>", "with -p or pipe mode: text, json (one object at the end) or stream-json (one event per line)")
        .choices(OUTPUT_FORMATS)
        .default("text"),
    )
    .addOption(new Option("--input-format <format>", "with -p: text, or stream-json (user messages as JSON lines on stdin; needs --output-format stream-json)").choices(INPUT_FORMATS).default("text"))
    .option("--include-partial-messages", "with stream-json output: also the model's stream deltas, as stream_event lines")
    .option("--mca-events", "with stream-json output: also mca's own event lines (text, tool_start, tool_end, turn_end, …)")
    .option("--output-schema <file>", "with -p: the final message must be JSON valid against this JSON Schema (asked again once); the result carries it as structured_output")
    .option("--fork-session", "accepted: a resumed run is always a session of its own, the earlier one left as it was")
    .option("--mcp-config <file>", "MCP servers to mount (the mcpServers shape), instead of the configured scopes (repeatable)", collect, [])
    .option("--strict-mcp-config", "only the servers of --mcp-config (none without it)")
    .option("--allow <rule>", "allow tools matching a rule, e.g. write_file or 'bash(git status*)' (repeatable)", collect, [])
    .option("--deny <rule>", "deny tools matching a rule (repeatable)", collect, [])
    .option("--allowedTools, --allowed-tools <rules...>", "Claude Code's allow rules, e.g. 'Bash(git log:*)' Read Edit (comma or space separated; docs/scripting.md maps them)")
    .option("--disallowedTools, --disallowed-tools <rules...>", "Claude Code's deny rules, e.g. Bash 'Bash(rm:*)' Write")
    .addOption(new Option("--permission-mode <mode>", "plan: read-only tools only; acceptEdits: file edits in the project allowed; bypassPermissions: everything allowed but deny rules, protected paths and the sandbox").choices(PERMISSION_MODES))
    .option("--dangerously-skip-permissions", "--permission-mode bypassPermissions")
    .option("--system-prompt <text>", "the model's instructions instead of mca's own (the project's AGENTS.md and the safety lines stay)")
    .option("--system-prompt-file <file>", "--system-prompt, read from a file")
    .option("--append-system-prompt <text>", "text added at the end of the system prompt")
    .option("--append-system-prompt-file <file>", "--append-system-prompt, read from a file")
    .option("--model <name>", "the Claude model (default: MCA_MODEL or the built-in default)")
    .option("-r, --resume [id]", "continue a session of this project: the newest chat session, or the one with this id (`mca sessions` lists them)", sessionIdArgument)
    .option("-c, --continue", "continue the newest session of this project")
    .option("--max-turns <n>", "model turns one prompt may take before it stops (default: no limit)", positiveInteger)
    .option("--max-budget-usd <dollars>", "US dollars one prompt may spend, estimated from list prices, before it stops", positiveAmount)
    .option("--input-responses <file>", "answers to MCP servers' questions (elicitation forms) for runs without a terminal")
    .option("--trust-project", "use this folder's own mcp.config.json and .mca/settings.json allow rules for this run without asking")
    .option("--no-sandbox", "run bash commands outside the operating-system sandbox for this run (allow rules then cover only read-only commands)")
    .option("--verbose", "show every log message of the MCP servers as it comes (without it: warnings and errors; /mcp logs <alias> shows the rest)")
    .addHelpText("after", MAIN_HELP)
    .exitOverride()
    .configureOutput(output)
    .action((words: readonly string[], _options: unknown, command: Command) => {
      const format = OUTPUT_FORMATS.find((candidate) => candidate === command.opts().outputFormat) ?? "text";
      const print: unknown = command.opts().print;
      // `mca fix the bug` reads as `mca "fix the bug"`; `-p hello` and `-p -- hello` alike.
      const parts = [...(typeof print === "string" ? [print] : []), ...words];
      const prompt = parts.length === 0 ? undefined : parts.join(" ");
      const options = commonOptions(command);
      const values = command.opts();
      const outputSchemaFile = typeof values.outputSchema === "string" ? { outputSchemaFile: values.outputSchema } : {};
      const output = {
        outputFormat: format,
        ...(values.includePartialMessages === true ? { includePartialMessages: true as const } : {}),
        ...(values.mcaEvents === true ? { mcaEvents: true as const } : {}),
        ...outputSchemaFile,
      };
      invocation = { kind: "session", options, print: print !== undefined, prompt, ...output };
      if (command.opts().inputFormat !== "stream-json") return;
      // As `claude -p` requires: JSON lines in, JSON lines out, and the prompts only from stdin.
      if (format !== "stream-json") command.error("mca: --input-format stream-json needs --output-format stream-json", { exitCode: USAGE_EXIT_CODE });
      if (prompt !== undefined) command.error("mca: with --input-format stream-json the prompts come on stdin, one user message a line: give no prompt on the command line", { exitCode: USAGE_EXIT_CODE });
      invocation = { kind: "session", options, print: true, prompt, ...output, inputFormat: "stream-json" };
    });

  program
    .command("tools")
    .description("list every tool the model sees, with its approval decision")
    .option("--json", "print JSON")
    .action((_options: unknown, command: Command) => {
      invocation = { kind: "tools", options: commonOptions(command), json: command.opts().json === true };
    });

  program
    .command("call <tool> [json]")
    .description("call one tool through the approval gate and print its result")
    .option("--json", "print JSON")
    .action((tool: string, args: string | undefined, _options: unknown, command: Command) => {
      invocation = { kind: "call", options: commonOptions(command), tool, args, json: command.opts().json === true };
    });

  program
    .command("context")
    .description("what the next model request would carry, in tokens: system prompt, AGENTS.md, tools by server, messages, free space")
    .option("--json", "print JSON")
    .action((_options: unknown, command: Command) => {
      invocation = { kind: "context", options: commonOptions(command), json: command.opts().json === true };
    });

  const mcp = program.command("mcp").description("MCP servers");
  mcp
    .command("list")
    .description("show each configured MCP server and its state")
    .option("--json", "print JSON")
    .action((_options: unknown, command: Command) => {
      invocation = { kind: "mcp-list", options: commonOptions(command), json: command.opts().json === true };
    });
  mcp
    .command("doctor [alias]")
    .description("start each MCP server (or the one named): start time, era, tools, their size in tokens, and a lint of every definition; exit 1 on errors")
    .option("--json", "print JSON")
    .action((alias: string | undefined, _options: unknown, command: Command) => {
      invocation = { kind: "mcp-doctor", options: commonOptions(command), alias, json: command.opts().json === true };
    });
  mcp
    .command("login <alias>")
    .description("log in to an HTTP server that needs MCP authorization (opens the browser, prints the URL)")
    .action((alias: string, _options: unknown, command: Command) => {
      invocation = { kind: "mcp-login", options: commonOptions(command), alias };
    });
  mcp
    .command("logout <alias>")
    .description("forget the tokens stored for that server")
    .action((alias: string, _options: unknown, command: Command) => {
      invocation = { kind: "mcp-logout", options: commonOptions(command), alias };
    });
  mcp
    .command("pin [alias]")
    .description("record that server's tool definitions as they are now (in your config folder); a later change asks on every call until pinned again")
    .option("--all", "pin every server that comes up")
    .action((alias: string | undefined, _options: unknown, command: Command) => {
      invocation = { kind: "mcp-pin", options: commonOptions(command), alias, all: command.opts().all === true };
    });
  mcp
    .command("unpin <alias>")
    .description("forget that server's pinned tool definitions")
    .action((alias: string, _options: unknown, command: Command) => {
      invocation = { kind: "mcp-unpin", options: commonOptions(command), alias };
    });
  declareMcpEditCommands(mcp, (command) => {
    invocation = { kind: "mcp-edit", command };
  });

  program
    .command("trust")
    .description("show what this folder's mcp.config.json and .mca/settings.json would start and allow, and trust them")
    .action((_options: unknown, command: Command) => {
      invocation = { kind: "trust", options: commonOptions(command) };
    });

  program
    .command("sessions")
    .description("list this project's sessions, newest first: id, start, mode, messages, first prompt")
    .option("--json", "print JSON")
    .action((_options: unknown, command: Command) => {
      invocation = { kind: "sessions", json: command.opts().json === true };
    });

  // Subcommands inherit exitOverride and configureOutput: they were set before the subcommands were made.
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return { kind: "exit", code: exitCodeFor(error) };
    throw error;
  }
  return invocation ?? { kind: "exit", code: USAGE_EXIT_CODE };
}

function exitCodeFor(error: CommanderError): number {
  return error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : USAGE_EXIT_CODE;
}

function commonOptions(command: Command): CommonOptions {
  const values: Record<string, unknown> = command.optsWithGlobals();
  const permissionMode = values.dangerouslySkipPermissions === true ? "bypassPermissions" : PERMISSION_MODES.find((mode) => mode === values.permissionMode);
  const systemPrompt = promptText(values, "systemPrompt");
  const appendSystemPrompt = promptText(values, "appendSystemPrompt");
  return {
    mcpConfigs: stringList(values.mcpConfig),
    ...(values.strictMcpConfig === true ? { strictMcpConfig: true } : {}),
    allow: stringList(values.allow),
    deny: stringList(values.deny),
    allowedTools: stringList(values.allowedTools).flatMap(splitToolList),
    disallowedTools: stringList(values.disallowedTools).flatMap(splitToolList),
    ...(permissionMode === undefined || permissionMode === "default" ? {} : { permissionMode }),
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    ...(appendSystemPrompt === undefined ? {} : { appendSystemPrompt }),
    model: stringOption(values, "model"),
    resume: values.resume === true || typeof values.resume === "string" || values.continue === true,
    resumeId: stringOption(values, "resume"),
    ...(values.continue === true ? { continueNewest: true } : {}),
    inputResponses: stringOption(values, "inputResponses"),
    trustProject: values.trustProject === true,
    ...(values.verbose === true ? { verbose: true } : {}),
    ...(values.sandbox === false ? { noSandbox: true } : {}),
    ...(typeof values.maxTurns === "number" ? { maxTurns: values.maxTurns } : {}),
    ...(typeof values.maxBudgetUsd === "number" ? { maxBudgetUsd: values.maxBudgetUsd } : {}),
  };
}

/** `--system-prompt <text>` or `--system-prompt-file <file>` (both given: the text). */
function promptText(values: Record<string, unknown>, key: "systemPrompt" | "appendSystemPrompt"): PromptText | undefined {
  const text = stringOption(values, key);
  if (text !== undefined) return { kind: "text", text };
  const path = stringOption(values, `${key}File`);
  return path === undefined ? undefined : { kind: "file", path };
}

/** package.json sits next to the sources (src/) or the build (dist/src/). */
const PACKAGE_JSON_CANDIDATES = ["../../package.json", "../package.json"];

export function readPackageVersion(moduleUrl: string): string {
  for (const candidate of PACKAGE_JSON_CANDIDATES) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(new URL(candidate, moduleUrl), "utf8"));
    } catch {
      continue;
    }
    if (typeof data === "object" && data !== null && "name" in data && data.name === "mca" && "version" in data && typeof data.version === "string") {
      return data.version;
    }
  }
  return "0.0.0";
}
