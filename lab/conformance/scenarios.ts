// What mca is held to: every client scenario the pinned runner offers (read from its own `list --client`, so
// a scenario a new runner adds is run, not missed), each at every spec version it applies to — the dated
// versions up to 2025-11-25 speak the stateful handshake, 2026-07-28 is stateless, and one run does not cover
// the other — and the extensions (`[extension]`, applicable at no version) forced at the newest. The server
// scenarios run the suite against servers/tickets.ts.

/** The newest version the runner knows: the server scenarios' and the extensions' version. */
export const SPEC_VERSION = "2026-07-28";

export interface ClientJob {
  readonly scenario: string;
  readonly specVersion: string;
  /** An extension scenario: applicable at no version, so run with `--force`. */
  readonly forced: boolean;
}

const DATED = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The runner's `list --client` lines (`  - auth/dpop [extension]`, `  - tools_call [2025-06-18,2026-07-28]`) as
 * jobs; an Error when a line names neither a version nor `extension`, or when the list is empty.
 */
export function clientJobs(listing: string): ClientJob[] | Error {
  const jobs: ClientJob[] = [];
  for (const line of listing.split("\n")) {
    const entry = /^\s*-\s+(\S+)\s+\[([^\]]*)\]\s*$/.exec(line);
    if (entry === null) continue;
    const [, scenario = "", tags = ""] = entry;
    const versions = tags.split(",").map((tag) => tag.trim());
    if (versions.length === 1 && versions[0] === "extension") {
      jobs.push({ scenario, specVersion: SPEC_VERSION, forced: true });
      continue;
    }
    if (!versions.every((version) => DATED.test(version))) return new Error(`the runner lists ${scenario} with ${JSON.stringify(tags)}, neither versions nor "extension"`);
    for (const specVersion of versions) jobs.push({ scenario, specVersion, forced: false });
  }
  return jobs.length === 0 ? new Error("the runner listed no client scenarios") : jobs;
}

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
