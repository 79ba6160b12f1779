import { describe, expect, it } from "vitest";
import { stableJson } from "./stable-json.js";

describe("stableJson", () => {
  it("gives the same text whatever the key order, at every depth", () => {
    const a = stableJson({ b: 1, a: { y: [1, { d: 2, c: 3 }], x: null } });
    const b = stableJson({ a: { x: null, y: [1, { c: 3, d: 2 }] }, b: 1 });
    expect(a).toBe(b);
    expect(a).toBe('{"a":{"x":null,"y":[1,{"c":3,"d":2}]},"b":1}');
  });

  it("keeps a __proto__ key as the key JSON.parse made it, so what is under it counts", () => {
    const withProto = (description: string): unknown => JSON.parse(`{"properties":{"__proto__":{"description":"${description}"}}}`);
    expect([stableJson(withProto("one")), stableJson(withProto("one")) === stableJson(withProto("two"))]).toEqual(['{"properties":{"__proto__":{"description":"one"}}}', false]);
  });

  it("keeps array order, because order in an array is meaning", () => {
    expect(stableJson([2, 1])).not.toBe(stableJson([1, 2]));
  });

  it("drops undefined properties as JSON does and turns a bare undefined into null", () => {
    expect(stableJson({ a: undefined, b: "x" })).toBe('{"b":"x"}');
    expect(stableJson(undefined)).toBe("null");
  });
});
