import { describe, expect, it } from "vitest";
import { chooseModel, NO_KEY_NOTICE } from "./session.js";

describe("chooseModel", () => {
  it("uses the mock silently when MOCK=1, even with a key", () => {
    expect(chooseModel({ MOCK: "1", ANTHROPIC_API_KEY: "k" }, undefined)).toEqual({ kind: "mock", notice: null });
  });

  it("uses the mock with a one-line notice when there is no key", () => {
    expect(chooseModel({ ANTHROPIC_API_KEY: "" }, undefined)).toEqual({ kind: "mock", notice: NO_KEY_NOTICE });
    expect(chooseModel({ MOCK: "0" }, undefined)).toEqual({ kind: "mock", notice: NO_KEY_NOTICE });
  });

  it("uses scripted turns when MCA_MOCK_SCRIPT names a file", () => {
    expect(chooseModel({ MCA_MOCK_SCRIPT: "/tmp/turns.json", MOCK: "1" }, undefined)).toEqual({ kind: "scripted", file: "/tmp/turns.json" });
  });

  it("talks to Anthropic with a key, the flag's model winning over MCA_MODEL", () => {
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", MCA_MODEL: "from-env" };
    expect(chooseModel(env, "from-flag")).toEqual({ kind: "anthropic", apiKey: "k", baseURL: "http://127.0.0.1:9", model: "from-flag" });
    expect(chooseModel(env, undefined)).toEqual({ kind: "anthropic", apiKey: "k", baseURL: "http://127.0.0.1:9", model: "from-env" });
    expect(chooseModel({ ANTHROPIC_API_KEY: "k" }, undefined)).toEqual({ kind: "anthropic", apiKey: "k", baseURL: undefined, model: undefined });
  });
});
