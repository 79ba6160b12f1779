// bash: runs a shell command in the project folder with a time limit, inside the operating-system sandbox
// when this run has one (see sandbox.ts); the command's whole process group is killed on timeout or abort,
// and its output is bounded while it is read.
import { resolve } from "node:path";
import { INHERITED_ENV_VARIABLES, isKnownToOnlyRead, onlyVariables, type CommandSandbox, type GateSubject, type Tool, type ToolArgs, type ToolResult } from "../kernel/index.js";
import { errorResult, okResult, optionalBoolean, optionalInteger, optionalString, requiredString } from "./local-tool.js";
import { runCommand, type CommandOutcome } from "./command-process.js";
import { removePlaceholders } from "./read-only-places.js";
import type { SandboxPlaces } from "./sandbox-places.js";
import { bubblewrapArgs, findForwarder, sandboxPolicy, SECCOMP_FD, seatbeltProfile, type ProxyForwarder, type SandboxAvailability, type SandboxOptions, type SandboxPolicy } from "./sandbox.js";
import type { DomainAccess } from "./domain-access.js";
import { serveProxy, type Dialer, type ProxyRun, type RefusedDomain } from "./network-proxy.js";

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
const BASH_KILL_GRACE_MS = 2_000;

/** What a command inherits: the minimal set MCP servers get, and the locale. Never the model's credentials. */
const BASH_ENV_VARIABLES = [...INHERITED_ENV_VARIABLES, "LANG", "LANGUAGE", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME", "TZ"];
/**
 * Added inside the sandbox, where the git folder is read-only: `git status` and `git diff` then skip
 * refreshing the index, a write they may leave out (https://git-scm.com/docs/git#Documentation/git.txt-codeGITOPTIONALLOCKScode).
 */
const SANDBOX_ENV = { GIT_OPTIONAL_LOCKS: "0" };
/**
 * Added to every command's environment, inside the sandbox or not: git works in a bare repository only when
 * told so (`--git-dir`, GIT_DIR), never in one it finds by itself, so that an archive unpacked in the project
 * that merely looks like one (HEAD, objects/, refs/ and a config whose textconv or fsmonitor runs a program)
 * is refused instead of obeyed (https://git-scm.com/docs/git-config#Documentation/git-config.txt-safebareRepository).
 * Through GIT_CONFIG_COUNT, which the command's own `git -c` still overrides, but nothing in the project can.
 */
const GIT_ENV = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "safe.bareRepository", GIT_CONFIG_VALUE_0: "explicit" };

/** The sandbox's options from the settings (`network`: every call has the network; `hidden`: where mca keeps the tokens of MCP logins). */
export interface BashSandbox extends Omit<SandboxOptions, "places"> {
  readonly availability: SandboxAvailability;
  /** What stays read-only inside the writable folders, present or not, read again for each call. */
  readonly places: SandboxPlaces;
  /**
   * Given, a command without the network reaches HTTP(S) through mca's proxy (network-proxy.ts), domain by
   * domain as these judge; absent, it has no network at all.
   */
  readonly domains?: DomainAccess;
}

export interface BashToolOptions {
  /** Between SIGTERM and SIGKILL to the process group; tests shorten it. */
  readonly killGraceMs?: number;
  /** Where commands run; absent: no sandbox. */
  readonly sandbox?: BashSandbox;
  /** What the command's environment is taken from; mca's own by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How the proxy opens its connections; tests map a domain to a loopback server. */
  readonly dial?: Dialer;
}

type BashArgs = {
  readonly command: string;
  readonly timeoutMs: number;
  /** The model's reason for running this call outside the sandbox; null: inside it. */
  readonly outsideReason: string | null;
  readonly network: boolean;
};

export function createBashTool(projectDir: string, options: BashToolOptions = {}): Tool<BashArgs> {
  const cwd = resolve(projectDir);
  const { sandbox } = options;
  /** Why bubblewrap, found at start, could not make a sandbox on first use; from then on there is none. */
  let broken: string | null = null;
  // Found once: the program that carries a sandboxed command's HTTP(S) out to the proxy.
  const forwarder = sandbox?.domains === undefined ? undefined : findForwarder();
  const placement = (args: BashArgs): CommandSandbox => {
    if (sandbox === undefined || sandbox.availability.kind === "none" || broken !== null) return "unavailable";
    if (args.outsideReason !== null) return "requested-outside";
    return args.network && !sandbox.network ? "network-requested" : "inside";
  };
  const tool: Tool<BashArgs> = {
    name: "bash",
    description: describeTool(sandbox, forwarder !== undefined),
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string", description: "The shell command, e.g. `git status --short`." },
        timeout_ms: {
          type: "integer",
          minimum: 1,
          maximum: BASH_MAX_TIMEOUT_MS,
          description: "Time limit in milliseconds (default 120000).",
        },
        sandbox: { type: "boolean", description: "false: run this one call outside the sandbox (the user is always asked; give `reason`)." },
        reason: { type: "string", description: "With `sandbox: false`: why this call must run outside the sandbox, shown to the user." },
        network: { type: "boolean", description: "true: this one call gets the network inside the sandbox (the user is always asked)." },
      },
      required: ["command"],
      additionalProperties: false,
    },
    kind: "exec",
    source: "local",
    originalName: "bash",
    parse: parseArgs,
    gateSubject: (args): GateSubject => ({ kind: "command", text: args.command, sandbox: placement(args) }),
    async run(args, context) {
      const where = placement(args);
      const inside = where === "inside" || where === "network-requested";
      // The gate judged this call as running in the sandbox: if the sandbox turns out not to work, it is not run.
      if (inside && sandbox?.availability.kind === "bubblewrap") {
        const failure = await sandbox.availability.works();
        if (failure !== null) {
          broken = failure;
          return errorResult(
            `Not run: the sandbox could not start here (bubblewrap: ${failure}). From now on commands run without a sandbox, ` +
              "so they ask the user unless an allow rule covers them as read-only; call again to be asked.",
          );
        }
      }
      const policy = inside && sandbox !== undefined ? sandboxPolicy(cwd, { ...sandbox, places: sandbox.places.read(), network: sandbox.network || args.network }) : null;
      if (policy !== null && policy.unguarded.length > 0) return errorResult(unguardedText(policy.unguarded));
      const env = { ...onlyVariables(options.env ?? process.env, BASH_ENV_VARIABLES), ...GIT_ENV };
      // Without the network, HTTP(S) goes through mca's proxy when the session gives one (bubblewrap only); a
      // command known to only read (`git status`, `ls`) reaches no network and is spared the forwarder's start.
      const domains = sandbox?.domains;
      const proxied =
        policy !== null && !policy.network && sandbox?.availability.kind === "bubblewrap" && forwarder !== undefined && domains !== undefined && !isKnownToOnlyRead(args.command);
      let proxy: ProxyRun | undefined;
      let outcome: CommandOutcome;
      try {
        outcome = await runCommand({
          ...commandLine(args, policy, sandbox, proxied ? forwarder : undefined),
          env: inside ? { ...env, ...SANDBOX_ENV } : env,
          cwd,
          timeoutMs: args.timeoutMs,
          killGraceMs: options.killGraceMs ?? BASH_KILL_GRACE_MS,
          signal: context.signal,
          ...(context.onProgress === undefined ? {} : { onLine: context.onProgress }),
          ...(proxied
            ? { channel: (stream) => (proxy = serveProxy(stream, { judge: domains.forCommand(tool, args.command), ...(options.dial === undefined ? {} : { dial: options.dial }) })) }
            : {}),
        });
      } finally {
        proxy?.close();
        if (policy !== null) removePlaceholders(policy);
        // Outside the sandbox the command could make what git obeys anywhere (a nested repository, say): read it afresh.
        if (where === "requested-outside") sandbox?.places.changed();
      }
      const result = describe(outcome, args.timeoutMs);
      const notes = [...(proxy === undefined ? [] : proxyNote(proxy.refused())), ...(inside ? [sandboxRefusal(outcome, proxied)] : [])].filter((line): line is string => line !== null);
      return notes.length === 0 ? result : { ...result, text: [result.text, ...notes].join("\n") };
    },
  };
  return tool;
}

/** What the model reads of the domains the proxy refused during the command, and how the user can allow one. */
function proxyNote(refused: readonly RefusedDomain[]): string[] {
  if (refused.length === 0) return [];
  const each = refused.map(({ domain, why }) => `${domain} (${why})`).join("; ");
  return [
    `[the sandbox's proxy refused the command's connections to ${each}. Do not retry: the user decides which domains ` +
      'commands may reach (an allow rule such as "network(registry.npmjs.org)", or the question asked when a command connects).]',
  ];
}

function describeTool(sandbox: BashSandbox | undefined, proxied: boolean): string {
  const common =
    "Run a command with `bash -c` in the project folder (stdin is empty). Returns `exit code N` and then " +
    "stdout and stderr interleaved; a nonzero exit is reported as an error. Time limit `timeout_ms`: " +
    "default 120,000, at most 600,000; on timeout the command and everything it started are killed. " +
    "Output over 7,000 bytes keeps its first 3,000 and last 4,000 bytes. The environment is minimal " +
    "(PATH, HOME, USER, SHELL, TERM, the locale); the model's API key variables are never in it.";
  const availability = sandbox?.availability;
  if (sandbox === undefined || availability === undefined || availability.kind === "none") {
    const why = availability?.kind === "none" ? `no sandbox: ${availability.why}` : "no sandbox";
    return (
      `${common} This run has ${why}, so allow rules cover only read-only commands and other commands ask the user. ` +
      "Background processes that still hold the output when the command ends are killed; redirect their output " +
      "(`cmd > log 2>&1 &`) to keep them running."
    );
  }
  return (
    `${common} It runs in a sandbox: the file system is read-only except the project folder` +
    `${sandbox.writable.length === 0 ? "" : ` and ${sandbox.writable.join(", ")}`}; inside the project, the git folder (.git), ` +
    "what else git obeys (submodules' .git, .gitmodules, included config files, hooks folders), .husky/, .mca/ and the files " +
    "of the project's own MCP servers are read-only, even where they do not exist yet, so git commands that write (add, commit, checkout, stash, fetch) fail there; " +
    `/tmp is private and empty; ${sandbox.network ? "the network is available" : proxied ? PROXIED_NETWORK : "there is no network (unix sockets included)"}; ` +
    "everything the command started ends with it. When the sandbox refuses something the result says so: then call again " +
    'with `"network": true` for the network, or `"sandbox": false` and a `"reason"` to run outside the sandbox. Both ' +
    "always ask the user, whatever the allow rules; use them only when the command needs it."
  );
}

const PROXIED_NETWORK =
  "there is no network (unix sockets included) but HTTP(S) through mca's proxy (HTTP_PROXY and HTTPS_PROXY are set; " +
  "programs that ignore them have no network): the user is asked about each new domain, and a refused one gets a 403 at once";

function parseArgs(args: ToolArgs): BashArgs | Error {
  const command = requiredString(args, "command");
  if (command instanceof Error) return command;
  const timeoutMs = optionalInteger(args, "timeout_ms", { min: 1, max: BASH_MAX_TIMEOUT_MS });
  if (timeoutMs instanceof Error) return timeoutMs;
  const inside = optionalBoolean(args, "sandbox");
  if (inside instanceof Error) return inside;
  const network = optionalBoolean(args, "network");
  if (network instanceof Error) return network;
  const reason = optionalString(args, "reason");
  if (reason instanceof Error) return reason;
  if (inside === false && (reason === undefined || reason.trim() === "")) {
    return new Error('argument "reason" must say why the command must run outside the sandbox when "sandbox" is false');
  }
  return { command, timeoutMs: timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS, outsideReason: inside === false ? (reason ?? "") : null, network: network === true };
}

/**
 * Why a call is not run: a symbolic link in a writable folder on the way to a read-only place could be
 * replaced by the command, and no mount can hold a link in place.
 */
function unguardedText(links: readonly string[]): string {
  return (
    `Not run: the sandbox cannot keep ${links.map((link) => JSON.stringify(link)).join(", ")} in place ` +
    "(a symbolic link in a writable folder, on the way to something git or mca obeys later, which a command could replace). " +
    'Call again with "sandbox": false and a "reason" to run it outside the sandbox; the user will be asked.'
  );
}

/** The program that runs the command: bash itself, or bash inside the sandbox's program under `policy` (with bubblewrap's seccomp program on fd 3). */
function commandLine(
  args: BashArgs,
  policy: SandboxPolicy | null,
  sandbox: BashSandbox | undefined,
  forwarder: ProxyForwarder | undefined,
): { readonly program: string; readonly args: readonly string[]; readonly fd3?: Buffer } {
  const bash = ["bash", "-c", args.command];
  const availability = sandbox?.availability;
  if (policy === null || availability === undefined) return { program: "bash", args: bash.slice(1) };
  switch (availability.kind) {
    case "bubblewrap": {
      const filter = policy.network ? null : availability.socketFilter;
      const through = forwarder ?? null;
      if (filter === null) return { program: availability.program, args: bubblewrapArgs(policy, bash, null, through) };
      return { program: availability.program, args: bubblewrapArgs(policy, bash, SECCOMP_FD, through), fd3: filter };
    }
    case "seatbelt":
      return { program: availability.program, args: ["-p", seatbeltProfile(policy), ...bash] };
    case "none":
      return { program: "bash", args: bash.slice(1) };
    default: {
      const unexpected: never = availability;
      return unexpected;
    }
  }
}

const NO_NETWORK = '[the sandbox has no network. If the command needs it, call bash again with "network": true; the user will be asked.]';

const NO_NETWORK_BUT_PROXY =
  "[the sandbox has no network but HTTP(S) through mca's proxy (HTTP_PROXY, HTTPS_PROXY), which this program did not use. " +
  'If the command needs the network, call bash again with "network": true; the user will be asked.]';

/** Failures the sandbox causes, as the programs inside word them, and what the model can do about them. */
const SANDBOX_REFUSALS: ReadonlyArray<{ readonly output: RegExp; readonly line: string }> = [
  {
    output: /Read-only file system|Device or resource busy/u,
    line:
      "[the sandbox refused a write: only the project folder is writable, and not its git folder (.git), .husky/ or .mca/, " +
      "so git commands that write (add, commit, checkout, stash, fetch…) need to run outside the sandbox. " +
      'If the command must write there, call bash again with "sandbox": false and a "reason"; the user will be asked.]',
  },
  {
    output: /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo (?:EAI_AGAIN|ENOTFOUND)/u,
    line: NO_NETWORK,
  },
];

function sandboxRefusal(outcome: CommandOutcome, proxied: boolean): string | null {
  if (outcome.kind !== "exited" || outcome.exitCode === 0) return null;
  const line = SANDBOX_REFUSALS.find(({ output }) => output.test(outcome.output))?.line ?? null;
  // With the proxy, what still has no network is a program that ignores HTTP_PROXY, or a protocol other than HTTP(S).
  return proxied && line === NO_NETWORK ? NO_NETWORK_BUT_PROXY : line;
}

function describe(outcome: CommandOutcome, limitMs: number): ToolResult {
  switch (outcome.kind) {
    case "exited": {
      const body = outcome.output === "" ? "(no output)" : outcome.output;
      if (outcome.exitCode === 0) return okResult(`exit code 0\n${body}`);
      if (outcome.exitCode !== null) return errorResult(`exit code ${outcome.exitCode}\n${body}`);
      return errorResult(`killed by signal ${outcome.signal ?? "unknown"}\n${body}`);
    }
    case "timed_out":
      return errorResult(`timed out after ${limitMs} ms; the command's process group was killed\n${outcome.output}`);
    case "aborted":
      return errorResult(`aborted; the command's process group was killed\n${outcome.output}`);
    case "spawn_failed":
      return errorResult(`could not start bash: ${outcome.message}`);
    default: {
      const unexpected: never = outcome;
      return unexpected;
    }
  }
}
