// Tokens and an estimated cost per turn and for the session, from the usage the model reports after each
// request. Prices are one table, with the date they were taken: an estimate to keep in view, not a bill.
import type { Usage } from "../kernel/index.js";

/** US dollars per million tokens, by model family (the longest matching name prefix wins). */
interface Price {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

/** Taken 2026-12-02 from Anthropic's published list prices; cache writes are the 5-minute kind (1.25× input). */
export const PRICES_TAKEN = "2026-12-02";
const PRICES: ReadonlyArray<readonly [prefix: string, price: Price]> = [
  ["claude-opus", { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  ["claude-sonnet", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-haiku", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
];

/** The model families mca knows the prices of (`claude-sonnet-*`, …): what `/model` alone lists. */
export function knownModelFamilies(): string[] {
  return PRICES.map(([prefix]) => `${prefix}-*`);
}

/** undefined for a model the table does not know: its tokens are shown, not a made-up cost. */
export function estimateCost(model: string, usage: Usage): number | undefined {
  const price = PRICES.find(([prefix]) => model.startsWith(prefix))?.[1];
  if (price === undefined) return undefined;
  const dollars =
    usage.inputTokens * price.input + usage.outputTokens * price.output + usage.cacheWriteTokens * price.cacheWrite + usage.cacheReadTokens * price.cacheRead;
  return dollars / 1_000_000;
}

/** Two counts of tokens added up. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}

export const NO_USAGE: Usage = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };

interface Totals {
  usage: Usage;
  /** null once any request's model had no price. */
  dollars: number | null;
  requests: number;
}

export interface CostTally {
  add(model: string, usage: Usage): void;
  /** The line for the turn that just ended (then the turn's count starts again); undefined when nothing was reported. */
  endTurn(): string | undefined;
  /** `/cost`: the session's totals. */
  sessionLines(): string[];
}

export function createCostTally(): CostTally {
  const empty = (): Totals => ({ usage: NO_USAGE, dollars: 0, requests: 0 });
  let turn = empty();
  const session = empty();
  const addTo = (totals: Totals, model: string, usage: Usage): void => {
    totals.usage = addUsage(totals.usage, usage);
    const cost = estimateCost(model, usage);
    totals.dollars = totals.dollars === null || cost === undefined ? null : totals.dollars + cost;
    totals.requests += 1;
  };
  return {
    add(model, usage) {
      addTo(turn, model, usage);
      addTo(session, model, usage);
    },
    endTurn() {
      if (turn.requests === 0) return undefined;
      const line = `${describeUsage(turn.usage)} · ${describeDollars(turn.dollars)} this turn · ${describeDollars(session.dollars)} this session`;
      turn = empty();
      return line;
    },
    sessionLines() {
      if (session.requests === 0) return ["no model usage yet in this session"];
      return [
        `${session.requests} model request${session.requests === 1 ? "" : "s"}: ${describeUsage(session.usage)}`,
        `estimated cost: ${describeDollars(session.dollars)} (list prices taken ${PRICES_TAKEN})`,
      ];
    },
  };
}

function describeUsage(usage: Usage): string {
  const tokens = (count: number): string => count.toLocaleString("en-US");
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return `${tokens(input)} tokens in (${tokens(usage.cacheReadTokens)} read from cache, ${tokens(usage.cacheWriteTokens)} written) · ${tokens(usage.outputTokens)} out`;
}

function describeDollars(dollars: number | null): string {
  return dollars === null ? "cost unknown for this model" : `~$${dollars.toFixed(dollars < 1 ? 4 : 2)}`;
}
