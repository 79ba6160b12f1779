import { describe, expect, it } from "vitest";
import { checkFieldValue, checkFormContent, parseNumberAnswer, readFormFields, type FormField } from "./form.js";

describe("readFormFields", () => {
  it("reads every primitive kind in the schema's order, with titles, descriptions, defaults, bounds and required", () => {
    const fields = readFormFields({
      type: "object",
      properties: {
        login: { type: "string", title: "Login", description: "Your user name", minLength: 2, maxLength: 20, default: "octo" },
        email: { type: "string", format: "email" },
        age: { type: "integer", minimum: 0, maximum: 150 },
        ratio: { type: "number", default: 0.5 },
        subscribe: { type: "boolean", default: true },
      },
      required: ["login", "age"],
    });
    expect(fields).toEqual([
      { name: "login", label: "Login", description: "Your user name", required: true, kind: "string", default: "octo", minLength: 2, maxLength: 20 },
      { name: "email", label: "email", required: false, kind: "string", format: "email" },
      { name: "age", label: "age", required: true, kind: "number", integer: true, minimum: 0, maximum: 150 },
      { name: "ratio", label: "ratio", required: false, kind: "number", integer: false, default: 0.5 },
      { name: "subscribe", label: "subscribe", required: false, kind: "boolean", default: true },
    ]);
  });

  it("reads the single-choice variants: enum, enum with enumNames, and oneOf const/title", () => {
    const fields = readFormFields({
      type: "object",
      properties: {
        plain: { type: "string", enum: ["a", "b"], default: "b" },
        named: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
        titled: { type: "string", oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }] },
      },
    });
    expect(fields).toEqual([
      { name: "plain", label: "plain", required: false, kind: "choice", options: [{ value: "a", title: "a" }, { value: "b", title: "b" }], default: "b" },
      { name: "named", label: "named", required: false, kind: "choice", options: [{ value: "r", title: "Red" }, { value: "g", title: "Green" }] },
      { name: "titled", label: "titled", required: false, kind: "choice", options: [{ value: "s", title: "Small" }, { value: "l", title: "Large" }] },
    ]);
  });

  it("reads the multiple-choice variants: items with enum, and items with anyOf const/title", () => {
    const fields = readFormFields({
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string", enum: ["x", "y"] }, minItems: 1, maxItems: 2, default: ["x"] },
        sizes: { type: "array", items: { anyOf: [{ const: "m", title: "Medium" }] } },
      },
    });
    expect(fields).toEqual([
      { name: "tags", label: "tags", required: false, kind: "choices", options: [{ value: "x", title: "x" }, { value: "y", title: "y" }], default: ["x"], minItems: 1, maxItems: 2 },
      { name: "sizes", label: "sizes", required: false, kind: "choices", options: [{ value: "m", title: "Medium" }] },
    ]);
  });

  it("names the first property it cannot ask for", () => {
    const fields = readFormFields({ type: "object", properties: { ok: { type: "string" }, nested: { type: "object", properties: {} } } });
    expect(fields).toEqual(new Error('property "nested" has a type mca cannot ask for: "object"'));
  });

  it("reads a schema without properties as an empty form", () => {
    expect(readFormFields({ type: "object" })).toEqual([]);
  });
});

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
