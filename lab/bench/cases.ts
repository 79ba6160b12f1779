// Every case of `pnpm bench`, as data: which scenario it belongs to, which client runs it against which
// server, and how many warm-up and measured samples it takes. One case = one fresh process.

export type ServerName = "raw-stdio" | "sdk-stdio" | "sdk-http-json" | "sdk-http-sse" | "plain-http";
export type ClientName = "mca" | "sdk" | "raw";
export type StartUpTarget = "node -e 0" | "mca tools --json" | "mca pipe mode" | "node on a pty" | "mca chat on a pty" | "mca chat resuming 2,000 messages";
export type LimitCheck = "mca-default-10mb" | "mca-cap-5mb" | "sdk-default-20mb" | "sdk-default-pages";
/**
 * What the bash tool runs in the sandbox cases: nothing (`true`), `git status` in a repository of 1,000 files,
 * or nothing in a repository of 50 submodules (each a place the sandbox keeps read-only).
 */
export type BashBenchCommand = "true" | "git status" | "true, 50 submodules";
/**
 * The scale group's figures, each over `servers` × `toolsPerServer` catalogue tools: mounting them
 * (mountServers), the tool definitions of the first request with tool search on or off (on: and the
 * deferred tools' names it adds to the system prompt), a tool_search
 * query and the building of its index, and the built CLI's run with all of them mounted (its peak RSS).
 */
/**
 * Budgets once asserted in unit tests, where a busy machine failed them: the gate on five 100 kB commands of
 * hostile shapes, and read_file's first window and search's first matches in a sparse 2 GB file.
 */
export type BudgetFigure = "gate" | "read_file" | "search";
export type ScaleFigure = "mount" | "first-request" | "first-request-names" | "first-request-all" | "search" | "search-index" | "cli";

export type CaseRun =
  | { readonly kind: "latency"; readonly server: ServerName; readonly client: ClientName; readonly warmups: number; readonly samples: number }
  | {
      readonly kind: "throughput";
      readonly server: ServerName;
      readonly client: ClientName;
      readonly warmupMs: number;
      readonly windowMs: number;
      readonly windows: number;
    }
  | {
      readonly kind: "large";
      readonly server: ServerName;
      readonly client: ClientName;
      readonly bytes: number;
      /** Tiny calls first, so that the client's code is warm before the first large result. */
      readonly tinyWarmups: number;
      readonly warmups: number;
      readonly samples: number;
    }
  | { readonly kind: "list-tools"; readonly client: ClientName; readonly tools: number; readonly pageSize: number; readonly samples: number }
  | {
      readonly kind: "mount";
      readonly fastServers: number;
      /** One more server, answering server/discover after this long; null: no slow server. */
      readonly slowDelayMs: number | null;
      readonly samples: number;
    }
  | { readonly kind: "start-up"; readonly target: StartUpTarget; readonly samples: number }
  | { readonly kind: "limit"; readonly check: LimitCheck }
  | { readonly kind: "bash"; readonly command: BashBenchCommand; readonly sandboxed: boolean; readonly warmups: number; readonly samples: number }
  | { readonly kind: "scale"; readonly figure: ScaleFigure; readonly servers: number; readonly toolsPerServer: number; readonly samples: number }
  | { readonly kind: "budget"; readonly figure: BudgetFigure; readonly samples: number };

/** `tokens`: characters of the JSON sent over 4, where no API count exists. */
export type Unit = "µs" | "ms" | "calls/s" | "tokens" | "outcome";

export interface BenchCase {
  readonly id: string;
  /** Cases of one scenario form one block of the table; its first case is the one the others are compared with. */
  readonly scenario: string;
  readonly label: string;
  readonly unit: Unit;
  readonly run: CaseRun;
  /**
   * How many fresh processes take the case's samples. The cases of a scenario take their rounds in turn
   * (mca, SDK, raw, mca, …), so that a machine busy for a while slows every client alike.
   */
  readonly rounds: number;
  /** The limit on one round. */
  readonly timeoutMs: number;
}

export const MB = 1_000_000;
const CASE_LIMIT_MS = 120_000;
/** The latency and throughput cases, whose targets are ratios of small numbers, run in three rounds. */
const TIMING_ROUNDS = 3;
const CLIENTS: readonly ClientName[] = ["mca", "sdk", "raw"];
const LABELS: Readonly<Record<ClientName, string>> = { mca: "mca", sdk: "SDK v2 client", raw: "raw client" };
const SERVER_TITLES: Readonly<Record<ServerName, string>> = {
  "raw-stdio": "stdio · raw server",
  "sdk-stdio": "stdio · SDK v2 server",
  "sdk-http-json": "HTTP · SDK v2 server, JSON replies",
  "sdk-http-sse": "HTTP · SDK v2 server, event-stream replies",
  "plain-http": "HTTP · plain node:http server",
};
const STDIO_SERVERS: readonly ServerName[] = ["raw-stdio", "sdk-stdio"];
const HTTP_SERVERS: readonly ServerName[] = ["sdk-http-json", "sdk-http-sse", "plain-http"];

/** The raw fetch client reads JSON replies only: it runs against the plain server alone. */
function clientsFor(server: ServerName): readonly ClientName[] {
  return server === "sdk-http-json" || server === "sdk-http-sse" ? ["mca", "sdk"] : CLIENTS;
}

function perClient(server: ServerName, figure: string, unit: Unit, rounds: number, run: (client: ClientName) => CaseRun): BenchCase[] {
  const scenario = `${SERVER_TITLES[server]} · ${figure}`;
  return clientsFor(server).map((client) => ({
    id: `${server}/${figure}/${client}`,
    scenario,
    label: LABELS[client],
    unit,
    run: run(client),
    rounds,
    timeoutMs: CASE_LIMIT_MS,
  }));
}

/** Over HTTP a call costs milliseconds, not tens of microseconds: fewer calls warm a client up as well. */
function callCases(servers: readonly ServerName[], sizesMb: readonly number[], http: boolean): BenchCase[] {
  const warmups = http ? 200 : 1500;
  const samples = http ? 150 : 1000;
  return servers.flatMap((server) => [
    ...perClient(server, "sequential tiny call", "µs", TIMING_ROUNDS, (client) => ({ kind: "latency", server, client, warmups, samples })),
    ...perClient(server, "64 in flight", "calls/s", TIMING_ROUNDS, (client) => ({
      kind: "throughput",
      server,
      client,
      warmupMs: 500,
      windowMs: 300,
      windows: 2,
    })),
    ...sizesMb.flatMap((mb) =>
      perClient(server, `one ${mb} MB result`, "ms", 1, (client) => ({
        kind: "large",
        server,
        client,
        bytes: mb * MB,
        tinyWarmups: http ? 200 : 1000,
        // "A single sample is enough for the SDK's 50 MB case": its framer is quadratic.
        warmups: client === "sdk" && mb >= 50 ? 0 : 1,
        samples: client === "sdk" && mb >= 50 ? 1 : mb >= 50 ? 2 : mb >= 10 ? 5 : 10,
      })),
    ),
  ]);
}

function single(id: string, scenario: string, label: string, unit: Unit, run: CaseRun): BenchCase {
  return { id, scenario, label, unit, run, rounds: 1, timeoutMs: CASE_LIMIT_MS };
}

const LIST_SCENARIO = "discovery · 1,000 tools at 2 per page (500 pages)";
const MOUNT_SCENARIO = "discovery · mca mounting 4 stdio servers, one answering discover after 1 s";
/** The floor under the mount scenario: starting 4 node processes at once on this machine's CPUs. */
const BOOT_SCENARIO = "discovery · reference: mca mounting fast stdio servers only";
const SLOW_DELAY_MS = 1000;
const START_UP_SAMPLES = 30;

function startUp(scenario: string, subject: StartUpTarget, anchor: StartUpTarget): BenchCase[] {
  return [subject, anchor].map((target) => single(`start-up/${scenario}/${target}`, `start-up · ${scenario}`, target, "ms", { kind: "start-up", target, samples: START_UP_SAMPLES }));
}

/** The bash tool in the bubblewrap sandbox, then without one: two rounds each, taken in turn. */
function bashCases(command: BashBenchCommand, scenario: string, samples: number): BenchCase[] {
  return [true, false].map((sandboxed) => ({
    ...single(`bash/${command}/${sandboxed ? "sandbox" : "none"}`, `sandbox · ${scenario}`, sandboxed ? "in the bubblewrap sandbox" : "without a sandbox", "ms", {
      kind: "bash",
      command,
      sandboxed,
      warmups: 5,
      samples,
    }),
    rounds: 2,
  }));
}

const SCALE_TOOLS_PER_SERVER = 100;

/** One process per figure, as everywhere; the servers of a fleet are started afresh in each. */
function scaleCase(figure: ScaleFigure, scenario: string, label: string, unit: Unit, servers: number, samples: number): BenchCase {
  const tools = servers * SCALE_TOOLS_PER_SERVER;
  return single(`scale/${figure}/${tools}`, `scale · ${scenario}`, label, unit, { kind: "scale", figure, servers, toolsPerServer: SCALE_TOOLS_PER_SERVER, samples });
}

const SCALE_CASES: readonly BenchCase[] = [
  scaleCase("mount", "mountServers, 50 stdio servers × 100 tools", "mca", "ms", 50, 5),
  ...[5, 50].flatMap((servers) => {
    const scenario = `the first request's tool definitions, ${(servers * SCALE_TOOLS_PER_SERVER).toLocaleString("en")} tools`;
    return [
      scaleCase("first-request", scenario, "tool search on", "tokens", servers, 1),
      scaleCase("first-request-names", scenario, "tool search on: the deferred names in the system prompt", "tokens", servers, 1),
      scaleCase("first-request-all", scenario, "tool search off: every definition", "tokens", servers, 1),
    ];
  }),
  // Each query of SEARCH_QUERIES (measure/scale.ts) is timed this many times over; the index is built once.
  scaleCase("search", "tool_search over 5,000 tools: one query", "mca", "ms", 50, 5),
  scaleCase("search-index", "tool_search over 5,000 tools: building the index", "mca", "ms", 50, 5),
  scaleCase("cli", "the built CLI, pipe mode with 50 × 100 tools mounted, until exit", "mca", "ms", 50, 3),
];

const BUDGET_CASES: readonly BenchCase[] = [
  single("budget/gate", "budgets · the gate judging five 100 kB commands (wrappers, options, words)", "mca", "ms", { kind: "budget", figure: "gate", samples: 10 }),
  single("budget/read_file", "budgets · read_file: lines 10–11 of a sparse 2 GB file", "mca", "ms", { kind: "budget", figure: "read_file", samples: 10 }),
  single("budget/search", "budgets · search: the first 200 matches in a sparse 2 GB file", "mca", "ms", { kind: "budget", figure: "search", samples: 10 }),
];

export const BENCH_CASES: readonly BenchCase[] = [
  ...callCases(STDIO_SERVERS, [1, 10, 50], false),
  ...callCases(HTTP_SERVERS, [10], true),
  ...(["mca", "sdk"] as const).map((client) =>
    single(`list/${client}`, LIST_SCENARIO, client === "sdk" ? "SDK v2 listTools(), listMaxPages: 0" : LABELS[client], "ms", {
      kind: "list-tools",
      client,
      tools: 1000,
      pageSize: 2,
      samples: 10,
    }),
  ),
  // Two rounds each, taken in turn: the ratio of the two is a target.
  { ...single("mount/four", MOUNT_SCENARIO, "4 servers together", "ms", { kind: "mount", fastServers: 3, slowDelayMs: SLOW_DELAY_MS, samples: 2 }), rounds: 2 },
  { ...single("mount/slow-alone", MOUNT_SCENARIO, "the slow one alone", "ms", { kind: "mount", fastServers: 0, slowDelayMs: SLOW_DELAY_MS, samples: 2 }), rounds: 2 },
  single("mount/four-fast", BOOT_SCENARIO, "4 fast servers together", "ms", { kind: "mount", fastServers: 4, slowDelayMs: null, samples: 5 }),
  single("mount/one-fast", BOOT_SCENARIO, "1 fast server", "ms", { kind: "mount", fastServers: 1, slowDelayMs: null, samples: 5 }),
  ...startUp("until exit: tools --json, empty config", "mca tools --json", "node -e 0"),
  ...startUp("until exit: pipe mode, empty input, MOCK=1", "mca pipe mode", "node -e 0"),
  ...startUp("until ready on a pty: chat, MOCK=1, no servers", "mca chat on a pty", "node on a pty"),
  single("start-up/resume", "start-up · until the resumed conversation is shown: chat --resume, 2,000 messages", "mca chat resuming 2,000 messages", "ms", {
    kind: "start-up",
    target: "mca chat resuming 2,000 messages",
    samples: 10,
  }),
  ...bashCases("true", "one bash call running `true`", 100),
  ...bashCases("git status", "one bash call running `git status` in a repository of 1,000 files", 30),
  ...bashCases("true, 50 submodules", "one bash call running `true` in a repository of 50 submodules", 100),
  single("limit/mca-10mb", "limits · what the defaults do", "mca, default cap, one 10 MB result", "outcome", { kind: "limit", check: "mca-default-10mb" }),
  single("limit/mca-cap", "limits · what the defaults do", "mca, maxLineBytes 5 MB, one 10 MB result", "outcome", { kind: "limit", check: "mca-cap-5mb" }),
  single("limit/sdk-20mb", "limits · what the defaults do", "SDK v2, default maxBufferSize, one 20 MB result", "outcome", { kind: "limit", check: "sdk-default-20mb" }),
  single("limit/sdk-pages", "limits · what the defaults do", "SDK v2 listTools(), default listMaxPages, 500 pages", "outcome", { kind: "limit", check: "sdk-default-pages" }),
  ...SCALE_CASES,
  ...BUDGET_CASES,
];
