import { describe, expect, it } from "vitest";
import { expandVariables } from "./expand-variables.js";

describe("expandVariables", () => {
  it("replaces ${VAR} with the variable's value, as often as it appears", () => {
    expect(expandVariables("${A}-${B}/${A}", { A: "1", B: "two" })).toEqual({ ok: true, value: "1-two/1" });
  });

  it("leaves text without references, and a $ not followed by {, as it is", () => {
    expect(expandVariables("cost $5 and $HOME", {})).toEqual({ ok: true, value: "cost $5 and $HOME" });
  });

  it("uses the default of ${VAR:-default} when the variable is unset", () => {
    expect(expandVariables("127.0.0.1:${PORT:-3115}", {})).toEqual({ ok: true, value: "127.0.0.1:3115" });
  });

  it("uses the default of ${VAR:-default} when the variable is empty, as the shell does", () => {
    expect(expandVariables("${PORT:-3115}", { PORT: "" })).toEqual({ ok: true, value: "3115" });
  });

  it("prefers the variable's value over the default", () => {
    expect(expandVariables("${PORT:-3115}", { PORT: "4000" })).toEqual({ ok: true, value: "4000" });
  });

  it("accepts an empty default", () => {
    expect(expandVariables("a${X:-}b", {})).toEqual({ ok: true, value: "ab" });
  });

  it("keeps an empty value of ${VAR} (it is set)", () => {
    expect(expandVariables("a${X}b", { X: "" })).toEqual({ ok: true, value: "ab" });
  });

  it("does not expand references inside a variable's value", () => {
    expect(expandVariables("${A}", { A: "${B}", B: "no" })).toEqual({ ok: true, value: "${B}" });
  });

  it("names a variable that is not set", () => {
    expect(expandVariables("Bearer ${TICKETS_TOKEN}", {})).toEqual({ ok: false, reason: "variable TICKETS_TOKEN is not set" });
  });

  it("does not find variables on the environment object's prototype", () => {
    expect(expandVariables("${constructor}", {})).toEqual({ ok: false, reason: "variable constructor is not set" });
  });

  it("rejects a reference that is never closed", () => {
    expect(expandVariables("ab${X", { X: "1" })).toEqual({ ok: false, reason: '"${" at character 3 is never closed with "}"' });
  });

  it("rejects a reference whose name is not a variable name", () => {
    expect(expandVariables("${1X}", {})).toEqual({
      ok: false,
      reason: '"${1X}" is not a variable reference (write ${NAME} or ${NAME:-default})',
    });
  });
});
