// The limit cases: not timings but what a client does by default with a 10 MB result or 500 pages, and
// what mca says when its cap is set below a result. Each outcome is a sentence for the table.
import { MB, type LimitCheck } from "./cases.js";
import { connectCase, type ConnectOptions } from "./case-endpoint.js";

const OUTCOME_LIMIT_MS = 20_000;

async function withinLimit<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${OUTCOME_LIMIT_MS / 1000} s`)), OUTCOME_LIMIT_MS);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

type Check = { client: "mca" | "sdk"; options: ConnectOptions; act: { call: number } | "list" };

const CHECKS: Readonly<Record<LimitCheck, Check>> = {
  "mca-default-10mb": { client: "mca", options: {}, act: { call: 10 * MB } },
  "mca-cap-5mb": { client: "mca", options: { mca: { maxLineBytes: 5 * MB } }, act: { call: 10 * MB } },
  // The SDK's default is 10 MiB, which a 10 MB result just fits under: 20 MB shows where it bites.
  "sdk-default-20mb": { client: "sdk", options: { sdk: {} }, act: { call: 20 * MB } },
  "sdk-default-pages": { client: "sdk", options: { sdk: {}, serverArgs: ["--tools", "1000", "--page-size", "2"] }, act: "list" },
};

export async function limitOutcome(check: LimitCheck): Promise<string> {
  const { client, options, act } = CHECKS[check];
  const connected = await connectCase("raw-stdio", client, options);
  try {
    const work = act === "list" ? connected.client.listTools() : connected.client.call(act.call);
    const count = await withinLimit(work);
    return act === "list" ? `listed ${count} tools` : `answered ${count.toLocaleString("en")} characters`;
  } catch (error) {
    return `failed — ${describe(error)}`;
  } finally {
    await withinLimit(connected.close()).catch(() => undefined);
  }
}
