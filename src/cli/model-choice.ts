// Which model a run talks to, decided from the environment and `--model`; the model modules are
// imported only once chosen, so the mock path never loads the Anthropic SDK.
import type { Model } from "../kernel/index.js";

export type ModelChoice =
  | { readonly kind: "mock"; readonly notice: string | null }
  | { readonly kind: "scripted"; readonly file: string }
  | { readonly kind: "anthropic"; readonly apiKey: string; readonly baseURL: string | undefined; readonly model: string | undefined };

export const NO_KEY_NOTICE = "No ANTHROPIC_API_KEY set: using the offline mock model (MOCK=1 to silence this)";

/** `MCA_MOCK_SCRIPT` → scripted turns; `MOCK=1` → mock; no key → mock with a notice; else Claude. */
export function chooseModel(env: Readonly<Record<string, string | undefined>>, modelFlag: string | undefined): ModelChoice {
  const script = nonEmpty(env.MCA_MOCK_SCRIPT);
  if (script !== undefined) return { kind: "scripted", file: script };
  if (isSet(env.MOCK)) return { kind: "mock", notice: null };
  const apiKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (apiKey === undefined) return { kind: "mock", notice: NO_KEY_NOTICE };
  return {
    kind: "anthropic",
    apiKey,
    baseURL: nonEmpty(env.ANTHROPIC_BASE_URL),
    model: modelFlag ?? nonEmpty(env.MCA_MODEL),
  };
}

export async function createChosenModel(choice: ModelChoice): Promise<Model> {
  switch (choice.kind) {
    case "mock": {
      const { createMockModel } = await import("../model/mock-model.js");
      return createMockModel();
    }
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
