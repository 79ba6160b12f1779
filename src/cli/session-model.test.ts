import { describe, expect, it } from "vitest";
import { chooseModel, createSessionModel, NO_KEY_HEADLESS_ERROR, NO_KEY_NOTICE } from "./session-model.js";

describe("chooseModel", () => {
  it("uses the mock silently when MOCK=1, even with a key, in every mode", () => {
    for (const mode of ["chat", "print", "pipe", "call"] as const) expect(chooseModel({ MOCK: "1", ANTHROPIC_API_KEY: "k" }, undefined, mode)).toEqual({ kind: "mock", notice: null });
  });

  it("uses the mock with a one-line notice when there is no key in the chat and where no model is asked", () => {
    expect(chooseModel({ ANTHROPIC_API_KEY: "" }, undefined, "chat")).toEqual({ kind: "mock", notice: NO_KEY_NOTICE });
    expect(chooseModel({ MOCK: "0" }, undefined, "call")).toEqual({ kind: "mock", notice: NO_KEY_NOTICE });
  });

  it("refuses -p without a key, and gives pipe mode no model, naming ANTHROPIC_API_KEY", () => {
    expect([chooseModel({}, undefined, "print"), chooseModel({ ANTHROPIC_API_KEY: "", MOCK: "0" }, undefined, "pipe")]).toEqual([
      new Error(NO_KEY_HEADLESS_ERROR),
      { kind: "none", why: NO_KEY_HEADLESS_ERROR },
    ]);
    expect(NO_KEY_HEADLESS_ERROR).toContain("ANTHROPIC_API_KEY");
  });

  it("uses scripted turns when MCA_MOCK_SCRIPT names a file", () => {
    expect(chooseModel({ MCA_MOCK_SCRIPT: "/tmp/turns.json", MOCK: "1" }, undefined, "print")).toEqual({ kind: "scripted", file: "/tmp/turns.json" });
  });

  it("talks to Anthropic with a key, the flag's model winning over MCA_MODEL", () => {
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", MCA_MODEL: "from-env" };
    expect(chooseModel(env, "from-flag", "print")).toEqual({ kind: "anthropic", apiKey: "k", baseURL: "http://127.0.0.1:9", model: "from-flag" });
    expect(chooseModel(env, undefined, "chat")).toEqual({ kind: "anthropic", apiKey: "k", baseURL: "http://127.0.0.1:9", model: "from-env" });
    expect(chooseModel({ ANTHROPIC_API_KEY: "k" }, undefined, "pipe")).toEqual({ kind: "anthropic", apiKey: "k", baseURL: undefined, model: undefined });
  });
});

describe("createSessionModel", () => {
  it("says why /model cannot switch where no Claude model answers, naming the key when there is none", async () => {
    const reasons = [];
    for (const choice of [{ kind: "mock", notice: null }, { kind: "none", why: NO_KEY_HEADLESS_ERROR }] as const) {
      const model = await createSessionModel(choice);
      if (model instanceof Error) throw model;
      const switched = await model.switchTo("claude-haiku-4-5");
      reasons.push(switched instanceof Error ? switched.message : switched);
    }
    expect(reasons).toEqual(["the offline mock model answers here: set ANTHROPIC_API_KEY to choose a Claude model", NO_KEY_HEADLESS_ERROR]);
  });

  it("refuses prompts with the reason when no model can answer, and counts no tokens with an offline model", async () => {
    const none = await createSessionModel({ kind: "none", why: NO_KEY_HEADLESS_ERROR });
    const mock = await createSessionModel({ kind: "mock", notice: null });
    if (none instanceof Error || mock instanceof Error) throw new Error("no model");
    expect([none.refusal, mock.refusal, mock.countTokens]).toEqual([NO_KEY_HEADLESS_ERROR, null, undefined]);
  });
});
