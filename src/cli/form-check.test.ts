import { describe, expect, it } from "vitest";
import { checkFieldValue, checkFormContent, parseNumberAnswer } from "./form-check.js";
import type { FormField } from "./form-fields.js";

const FIELDS: FormField[] = [
  { name: "login", label: "Login", required: true, kind: "string", minLength: 2 },
  { name: "age", label: "age", required: false, kind: "number", integer: true, minimum: 0 },
  { name: "color", label: "color", required: false, kind: "choice", options: [{ value: "r", title: "Red" }] },
  { name: "tags", label: "tags", required: false, kind: "choices", options: [{ value: "x", title: "x" }], maxItems: 1 },
];

describe("checkFormContent", () => {
  it("accepts content that gives every required field a fitting value", () => {
    expect(checkFormContent(FIELDS, { login: "octo", age: 3, color: "r", tags: ["x"] })).toBeUndefined();
  });

  it("names a missing required field", () => {
    expect(checkFormContent(FIELDS, { age: 3 })).toBe('"login" is required');
  });

  it("names a field whose value does not fit, and says why", () => {
    expect(checkFormContent(FIELDS, { login: "o" })).toBe('"login" must be at least 2 characters long');
    expect(checkFormContent(FIELDS, { login: "octo", age: 1.5 })).toBe('"age" must be a whole number');
    expect(checkFormContent(FIELDS, { login: "octo", color: "b" })).toBe('"color" must be one of "r"');
    expect(checkFormContent(FIELDS, { login: "octo", tags: ["x", "x"] })).toBe('"tags" must be at most 1 choices');
  });

  it("names a value for a field the form does not have", () => {
    expect(checkFormContent(FIELDS, { login: "octo", extra: true })).toBe('"extra" is not a field of the form');
  });
});

describe("checkFieldValue", () => {
  it("checks the string formats", () => {
    const field = (format: string): FormField => ({ name: "f", label: "f", required: true, kind: "string", format });
    expect(checkFieldValue(field("email"), "a@b.example")).toBeUndefined();
    expect(checkFieldValue(field("email"), "nobody")).toBe("must be an email address");
    expect(checkFieldValue(field("date"), "2026-07-28")).toBeUndefined();
    expect(checkFieldValue(field("date"), "28.07.2026")).toBe("must be a date (YYYY-MM-DD)");
    expect(checkFieldValue(field("uri"), "https://example.com/x")).toBeUndefined();
  });
});

describe("parseNumberAnswer", () => {
  const age: Extract<FormField, { kind: "number" }> = { name: "age", label: "age", required: true, kind: "number", integer: true, maximum: 150 };

  it("reads a typed number, an empty answer, or says what is wrong", () => {
    expect(parseNumberAnswer(age, " 42 ")).toBe(42);
    expect(parseNumberAnswer(age, "")).toBe("");
    expect(parseNumberAnswer(age, "forty")).toEqual({ problem: "must be a number" });
    expect(parseNumberAnswer(age, "151")).toEqual({ problem: "must be at most 150" });
  });
});
