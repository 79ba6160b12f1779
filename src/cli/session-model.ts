// Which model a run talks to, and the session's model that `/model` switches. The model modules are
// imported only once chosen, so the mock path never loads the Anthropic SDK.
import { describeError, type Model, type TokenCountRequest } from "../kernel/index.js";
import type { SessionMode } from "../session/index.js";

/** Asks the API to count a request's input tokens (`/context`, `mca context`). */
export type CountTokens = (request: TokenCountRequest) => Promise<number>;

/** The model of a session: one object the agent holds, delegating to the model chosen now. */
export interface SessionModel {
  /** Answers the agent's requests and the servers' sampling requests the user consents to; its name is the current model's. */
  readonly answering: Model;
  /** `/model <name>`: the Claude model from the next request on; an Error when an offline model answers. */
  switchTo(name: string): Promise<string | Error>;
  /** Counts with the model answering now; undefined for a model that cannot count (then the report estimates). */
  readonly countTokens: CountTokens | undefined;
  /** Why no prompt can be answered (pipe mode without a key): the first prompt ends the run with it; null otherwise. */
  readonly refusal: string | null;
}

/** The chosen model, made; `/model` replaces what it delegates to, from the next request on. */
export async function createSessionModel(choice: ModelChoice): Promise<SessionModel | Error> {
  const chosen = await createChosenModel(choice).catch((error: unknown) => new Error(`cannot set up the model: ${describeError(error)}`));
  if (chosen instanceof Error) return chosen;
  let current: Model = chosen;
  const answering: Model = {
    get name() {
      return current.name;
    },
    complete: (request) => current.complete(request),
  };
  return {
    answering,
    // A Claude model can count, the offline ones cannot; `/model` only ever switches between Claude models.
    countTokens: chosen.countTokens === undefined ? undefined : (request) => current.countTokens?.(request) ?? Promise.reject(new Error(`${current.name} cannot count tokens`)),
    switchTo: async (name) => {
      if (choice.kind === "none") return new Error(choice.why);
      if (choice.kind !== "anthropic") return new Error(`the ${choice.kind === "mock" ? "offline mock" : "scripted"} model answers here: set ANTHROPIC_API_KEY to choose a Claude model`);
      const next = await createChosenModel({ ...choice, model: name }).catch((error: unknown) => new Error(describeError(error)));
      if (next instanceof Error) return next;
      current = next;
      return next.name;
    },
    refusal: choice.kind === "none" ? choice.why : null,
  };
}

export type ModelChoice =
  | { readonly kind: "mock"; readonly notice: string | null }
  /** Pipe mode without a key: its slash commands run, and its first prompt ends the run naming the key. */
  | { readonly kind: "none"; readonly why: string }
  | { readonly kind: "scripted"; readonly file: string }
  | { readonly kind: "anthropic"; readonly apiKey: string; readonly baseURL: string | undefined; readonly model: string | undefined };

export const NO_KEY_NOTICE = "No ANTHROPIC_API_KEY set: using the offline mock model (MOCK=1 to silence this)";

/** Without a terminal nobody reads a notice: a run meant for Claude that gets the mock would "pass" in CI. */
export const NO_KEY_HEADLESS_ERROR = "ANTHROPIC_API_KEY is not set: -p and pipe mode talk to Claude with it (MOCK=1 runs the offline mock model instead)";

/** Modes whose answers go to a script rather than a person: no key there is an error, not the mock. */
const HEADLESS_MODES: ReadonlySet<SessionMode> = new Set(["print", "pipe"]);

/**
 * `MCA_MOCK_SCRIPT` → scripted turns; `MOCK=1` → mock; no key → mock with a notice in the chat (and where no
 * model is asked: `mca tools`, `mca call`), an Error in -p and pipe mode; else Claude.
 */
export function chooseModel(env: Readonly<Record<string, string | undefined>>, modelFlag: string | undefined, mode: SessionMode): ModelChoice | Error {
  const script = nonEmpty(env.MCA_MOCK_SCRIPT);
  if (script !== undefined) return { kind: "scripted", file: script };
  if (isSet(env.MOCK)) return { kind: "mock", notice: null };
  const apiKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (apiKey === undefined) {
    if (mode === "pipe") return { kind: "none", why: NO_KEY_HEADLESS_ERROR };
    return HEADLESS_MODES.has(mode) ? new Error(NO_KEY_HEADLESS_ERROR) : { kind: "mock", notice: NO_KEY_NOTICE };
  }
  return {
    kind: "anthropic",
    apiKey,
    baseURL: nonEmpty(env.ANTHROPIC_BASE_URL),
    model: modelFlag ?? nonEmpty(env.MCA_MODEL),
  };
}

async function createChosenModel(choice: ModelChoice): Promise<Model> {
  switch (choice.kind) {
    case "mock": {
      const { createMockModel } = await import("../model/mock-model.js");
      return createMockModel();
    }
    case "none":
      return {
        name: "none",
        complete: async () => {
          throw new Error(choice.why);
        },
      };
    case "scripted": {
      const { createScriptedModel } = await import("../model/scripted-model.js");
      return createScriptedModel(choice.file);
    }
    case "anthropic": {
      const { createAnthropicModel, DEFAULT_MODEL } = await import("../model/anthropic-model.js");
      return createAnthropicModel({
        apiKey: choice.apiKey,
        ...(choice.baseURL === undefined ? {} : { baseURL: choice.baseURL }),
        model: choice.model ?? DEFAULT_MODEL,
      });
    }
    default: {
      const unknown: never = choice;
      throw new Error(`unknown model choice ${JSON.stringify(unknown)}`);
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** `MOCK=1`, `MOCK=true`: set; empty, `0` or `false`: not set. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

