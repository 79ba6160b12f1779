import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob.js";

describe("compileGlob", () => {
  it("matches a glob without a slash against the base name at any depth", () => {
    const accepts = compileGlob("*.ts");
    expect(["a.ts", "src/deep/b.ts", "a.tsx", "src/ts"].map(accepts)).toEqual([true, true, false, false]);
  });

  it("keeps * inside one folder and lets **/ span folders", () => {
    expect(["src/a.ts", "src/x/a.ts"].map(compileGlob("src/*.ts"))).toEqual([true, false]);
    expect(["src/a.ts", "src/x/y/a.ts", "lib/a.ts"].map(compileGlob("src/**/*.ts"))).toEqual([true, true, false]);
  });

  it("supports ? and {a,b} and treats other characters literally", () => {
    expect(["a1.js", "ab.ts", "a.md", "a12.js"].map(compileGlob("a?.{js,ts}"))).toEqual([true, true, false, false]);
    expect(["a+b.txt", "aab.txt"].map(compileGlob("a+b.txt"))).toEqual([true, false]);
  });
});
