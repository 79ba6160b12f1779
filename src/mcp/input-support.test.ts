import { describe, expect, it } from "vitest";
import type { InputRequest } from "./input-request.js";
import { clientCapabilities, undeclaredReason } from "./input-support.js";

describe("clientCapabilities", () => {
  it("declares nothing for a client that answers nothing", () => {
    expect(clientCapabilities()).toEqual({});
  });

  it("declares each supported kind as an object", () => {
    expect(clientCapabilities({ elicitationForm: true, elicitationUrl: true, sampling: true, roots: true })).toEqual({
      elicitation: { form: {}, url: {} },
      roots: {},
      sampling: {},
    });
  });

  it("declares only the elicitation modes supported", () => {
    expect(clientCapabilities({ elicitationForm: true })).toEqual({ elicitation: { form: {} } });
  });
});

describe("undeclaredReason", () => {
  const form: InputRequest = { kind: "elicit-form", message: "m", requestedSchema: {}, params: {} };
  const url: InputRequest = { kind: "elicit-url", message: "m", url: "https://x", params: {} };
  const sampling: InputRequest = { kind: "sampling", messages: [], maxTokens: 1, usesTools: true, params: {} };

  it("lets through what was declared", () => {
    expect(undeclaredReason(form, { elicitationForm: true })).toBeUndefined();
  });

  it("says which capability a request would have needed", () => {
    expect([undeclaredReason(url, { elicitationForm: true }), undeclaredReason(sampling, { sampling: true })]).toEqual([
      "a URL elicitation, and mca did not declare elicitation.url",
      "sampling with tools, and mca did not declare sampling.tools",
    ]);
  });
});
