// The targets of the bench brief, as data: which case is compared with which, on what, and how far apart
// they may be. A ratio is always mca's figure divided by the anchor's, both from the same run.
import { CONTEXT_WINDOW_TOKENS } from "../../src/kernel/index.js";
import { BENCH_CASES, type ServerName } from "./cases.js";

export type Target =
  | {
      readonly kind: "ratio";
      readonly text: string;
      readonly subject: string;
      readonly anchor: string;
      readonly metric: "median" | "peakRss";
      readonly op: "≤" | "≥";
      readonly factor: number;
    }
  | { readonly kind: "outcome"; readonly text: string; readonly caseId: string; readonly expected: RegExp }
  /** What the subject adds to the anchor's median, in the cases' unit (ms). */
  | { readonly kind: "difference"; readonly text: string; readonly subject: string; readonly anchor: string; readonly atMost: number }
  /** A bound on one case's own figure: its median in the case's unit, or its peak RSS in MiB. */
  | { readonly kind: "at-most"; readonly text: string; readonly caseId: string; readonly metric: "median" | "peakRss"; readonly atMost: number };

function ratio(text: string, subject: string, anchor: string, op: "≤" | "≥", factor: number, metric: "median" | "peakRss" = "median"): Target {
  return { kind: "ratio", text, subject, anchor, metric, op, factor };
}

const SEQ = "sequential tiny call";
const FLIGHT = "64 in flight";

function stdioTargets(server: ServerName, flightFactor: number): Target[] {
  const at = (figure: string, client: string): string => `${server}/${figure}/${client}`;
  const large = [10, 50].flatMap((mb) => {
    const figure = `one ${mb} MB result`;
    return [
      ratio(`${server}: ${mb} MB time ≤ 2× the raw client`, at(figure, "mca"), at(figure, "raw"), "≤", 2),
      ratio(`${server}: ${mb} MB peak RSS ≤ 1.5× the raw client`, at(figure, "mca"), at(figure, "raw"), "≤", 1.5, "peakRss"),
    ];
  });
  return [
    ratio(`${server}: sequential latency ≤ 1.0× the SDK v2 client`, at(SEQ, "mca"), at(SEQ, "sdk"), "≤", 1),
    ratio(`${server}: sequential latency ≤ 2× the raw client`, at(SEQ, "mca"), at(SEQ, "raw"), "≤", 2),
    ratio(`${server}: 64-in-flight throughput ≥ ${flightFactor}× the SDK v2 client`, at(FLIGHT, "mca"), at(FLIGHT, "sdk"), "≥", flightFactor),
    ...large,
  ];
}

function sdkHttpTargets(server: ServerName): Target[] {
  const at = (figure: string, client: string): string => `${server}/${figure}/${client}`;
  return [
    ratio(`${server}: sequential latency ≤ 1.0× the SDK v2 client`, at(SEQ, "mca"), at(SEQ, "sdk"), "≤", 1),
    ratio(`${server}: 64-in-flight throughput ≥ 1.0× the SDK v2 client`, at(FLIGHT, "mca"), at(FLIGHT, "sdk"), "≥", 1),
  ];
}

function startUpTarget(scenario: string, subject: string, anchor: string): Target {
  return ratio(`start-up ${scenario}: ≤ 1.5× ${anchor}`, `start-up/${scenario}/${subject}`, `start-up/${scenario}/${anchor}`, "≤", 1.5);
}

/** "With tool search on, the first request's tool definitions ≤ 10 % of the context window whatever the tool count." */
const FIRST_REQUEST_SHARE = 0.1;
/** 150 MB of RSS, in the MiB the bench reports (process.resourceUsage and GNU time count KiB). */
const CLI_RSS_MIB = 150_000_000 / 2 ** 20;

function firstRequestTarget(tools: number): Target {
  const tokens = CONTEXT_WINDOW_TOKENS * FIRST_REQUEST_SHARE;
  const text = `scale: first request's tool definitions with tool search on, ${tools.toLocaleString("en")} tools ≤ 10 % of the window (${tokens.toLocaleString("en")} tokens)`;
  return { kind: "at-most", text, caseId: `scale/first-request/${tools}`, metric: "median", atMost: tokens };
}

const SCALE_TARGETS: readonly Target[] = [
  { kind: "at-most", text: "scale: 50 stdio servers × 100 tools mounted ≤ 3 s", caseId: "scale/mount/5000", metric: "median", atMost: 3000 },
  firstRequestTarget(500),
  firstRequestTarget(5000),
  { kind: "at-most", text: "scale: tool_search over 5,000 tools ≤ 20 ms (median query)", caseId: "scale/search/5000", metric: "median", atMost: 20 },
  { kind: "at-most", text: "scale: mca with 5,000 mounted tools ≤ 150 MB (143 MiB) peak RSS", caseId: "scale/cli/5000", metric: "peakRss", atMost: CLI_RSS_MIB },
];

/** The budgets the unit tests asserted until they counted bytes and verdicts instead (the median of a run). */
const BUDGET_TARGETS: readonly Target[] = [
  { kind: "at-most", text: "budget: the gate judges five 100 kB commands ≤ 3 s", caseId: "budget/gate", metric: "median", atMost: 3000 },
  { kind: "at-most", text: "budget: read_file's window of a 2 GB file ≤ 1 s", caseId: "budget/read_file", metric: "median", atMost: 1000 },
  { kind: "at-most", text: "budget: search's first matches in a 2 GB file ≤ 2 s", caseId: "budget/search", metric: "median", atMost: 2000 },
];

export const TARGETS: readonly Target[] = [
  ...stdioTargets("raw-stdio", 1.5),
  ...stdioTargets("sdk-stdio", 1),
  { kind: "outcome", text: "no default limit kills a 10 MB result", caseId: "limit/mca-10mb", expected: /^answered 10,000,000 characters$/ },
  { kind: "outcome", text: "the cap is configurable and its error is clear", caseId: "limit/mca-cap", expected: /maxLineBytes/ },
  ...sdkHttpTargets("sdk-http-json"),
  ...sdkHttpTargets("sdk-http-sse"),
  ratio("plain-http: 64-in-flight throughput ≥ 2× the fetch-based client", `plain-http/${FLIGHT}/mca`, `plain-http/${FLIGHT}/raw`, "≥", 2),
  ratio("1,000 tools over 500 pages ≤ 1.0× the SDK v2 listTools()", "list/mca", "list/sdk", "≤", 1),
  ratio("4 servers together ≈ the slowest alone (≤ 1.1×)", "mount/four", "mount/slow-alone", "≤", 1.1),
  startUpTarget("until exit: tools --json, empty config", "mca tools --json", "node -e 0"),
  startUpTarget("until exit: pipe mode, empty input, MOCK=1", "mca pipe mode", "node -e 0"),
  startUpTarget("until ready on a pty: chat, MOCK=1, no servers", "mca chat on a pty", "node on a pty"),
  { kind: "at-most", text: "a chat resuming a session of 2,000 messages shows it within 1 s", caseId: "start-up/resume", metric: "median", atMost: 1000 },
  { kind: "difference", text: "the sandbox adds ≤ 30 ms to a bash call running `true`", subject: "bash/true/sandbox", anchor: "bash/true/none", atMost: 30 },
  {
    kind: "difference",
    text: "the sandbox adds ≤ 30 ms to a bash call in a repository of 50 submodules",
    subject: "bash/true, 50 submodules/sandbox",
    anchor: "bash/true, 50 submodules/none",
    atMost: 30,
  },
  ...SCALE_TARGETS,
  ...BUDGET_TARGETS,
];

function caseIdsOf(target: Target): readonly string[] {
  return target.kind === "outcome" || target.kind === "at-most" ? [target.caseId] : [target.subject, target.anchor];
}

/** Ids a target names that no case has: a typo here would silently drop a target. */
export function unknownTargetIds(): string[] {
  const ids = new Set(BENCH_CASES.map((one) => one.id));
  return TARGETS.flatMap(caseIdsOf).filter((id) => !ids.has(id));
}

/** The targets a run of these cases can judge (`--only`): those whose every case is among them. */
export function targetsFor(caseIds: readonly string[], targets: readonly Target[] = TARGETS): Target[] {
  const ran = new Set(caseIds);
  return targets.filter((target) => caseIdsOf(target).every((id) => ran.has(id)));
}
