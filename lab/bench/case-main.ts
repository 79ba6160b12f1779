// One bench case in this fresh process: `node case-main.js <case id>` runs it and prints one JSON line,
// the samples and this process's peak RSS, so that no case inherits another's JIT state or heap.
// Measuring modules are imported by the case that needs them, for the same reason as the clients.
import { BENCH_CASES, type CaseRun } from "./cases.js";
import { connectCase } from "./case-endpoint.js";
import { largeResultMs, sequentialLatencyUs, throughputPerSecond } from "./measure/call-loops.js";
import { serverCommand, type Command } from "./servers/server-command.js";

const START_UP_WARMUPS = 3;
const MOUNT_WARMUPS = 1;
const LIST_WARMUPS = 3;

export interface CaseOutput {
  readonly id: string;
  readonly samples: number[];
  readonly peakRssMb: number | undefined;
  readonly cpuUsPerCall?: number;
  readonly outcome?: string;
}

type Measured = { samples: number[]; peakRssMb?: number; cpuUsPerCall?: number; outcome?: string };

function ownPeakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

async function measure(run: CaseRun): Promise<Measured> {
  switch (run.kind) {
    case "latency":
    case "throughput":
    case "large": {
      const connected = await connectCase(run.server, run.client);
      try {
        const { client } = connected;
        if (run.kind === "latency") return await sequentialLatencyUs(client, run.warmups, run.samples);
        if (run.kind === "throughput") return await throughputPerSecond(client, run.warmupMs, run.windowMs, run.windows);
        return await largeResultMs(client, run.bytes, run.tinyWarmups, run.warmups, run.samples);
      } finally {
        await connected.close();
      }
    }
    case "list-tools": {
      const { listToolsMs } = await import("./measure/list-tools.js");
      const connected = await connectCase("raw-stdio", run.client, { serverArgs: ["--tools", String(run.tools), "--page-size", String(run.pageSize)] });
      try {
        return { samples: await listToolsMs(connected.client, run.tools, LIST_WARMUPS, run.samples) };
      } finally {
        await connected.close();
      }
    }
    case "mount": {
      const { mountMs } = await import("./measure/mount.js");
      const servers = new Map<string, Command>();
      for (let index = 1; index <= run.fastServers; index += 1) servers.set(`fast${index}`, serverCommand("raw-stdio-server"));
      if (run.slowDelayMs !== null) servers.set("slow", serverCommand("raw-stdio-server", ["--discover-delay-ms", String(run.slowDelayMs)]));
      return { samples: await mountMs(servers, MOUNT_WARMUPS, run.samples) };
    }
    case "start-up": {
      const { exitRunPeakRssMb, startUpMs } = await import("./measure/start-up.js");
      const { startUpProject } = await import("./start-up-targets.js");
      const project = startUpProject(run.target, process.cwd());
      try {
        const samples = await startUpMs(project.run, START_UP_WARMUPS, run.samples);
        return { samples, peakRssMb: project.run.readyText === undefined ? exitRunPeakRssMb(project.run) : undefined };
      } finally {
        project.remove();
      }
    }
    case "bash": {
      const { bashCallMs } = await import("./measure/bash-calls.js");
      return { samples: await bashCallMs(run.command, run.sandboxed, run.warmups, run.samples) };
    }
    case "scale": {
      const { measureScale } = await import("./measure/scale.js");
      return measureScale(run, process.cwd());
    }
    case "budget": {
      const { budgetMs } = await import("./measure/budgets.js");
      return { samples: await budgetMs(run.figure, run.samples) };
    }
    case "limit": {
      const { limitOutcome } = await import("./limit-checks.js");
      return { samples: [], outcome: await limitOutcome(run.check) };
    }
    default: {
      const unknown: never = run;
      throw new Error(`unknown run ${JSON.stringify(unknown)}`);
    }
  }
}

async function main(id: string | undefined): Promise<void> {
  const benchCase = BENCH_CASES.find((one) => one.id === id);
  if (benchCase === undefined) throw new Error(`no bench case ${JSON.stringify(id)}`);
  const measured = await measure(benchCase.run);
  // Start-up cases and the scale group's CLI runs measure other processes; everything else measures this one.
  const { run } = benchCase;
  const peakRssMb = run.kind === "start-up" || (run.kind === "scale" && run.figure === "cli") ? measured.peakRssMb : ownPeakRssMb();
  const { samples, cpuUsPerCall, outcome } = measured;
  const output: CaseOutput = { id: benchCase.id, samples, peakRssMb, cpuUsPerCall, outcome };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main(process.argv[2]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
