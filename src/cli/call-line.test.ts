import { describe, expect, it } from "vitest";
import { parseCallArgs, parseCallLine } from "./call-line.js";

describe("parseCallLine", () => {
  it("splits the tool name from JSON arguments that contain spaces", () => {
    expect(parseCallLine(' write_file {"path": "a b.txt", "content": "x y"} ')).toEqual({
      tool: "write_file",
      args: { path: "a b.txt", content: "x y" },
    });
  });

  it("takes a tool name alone as empty arguments", () => {
    expect(parseCallLine("list_dir")).toEqual({ tool: "list_dir", args: {} });
  });

  it("explains its usage when no tool is named", () => {
    expect(parseCallLine("   ")).toEqual(new Error("usage: /call <tool> <json>"));
  });

  it("names the tool and the JSON problem when the arguments do not parse", () => {
    const result = parseCallLine("read_file {path: 1}");
    expect(result).toBeInstanceOf(Error);
    expect(result instanceof Error ? result.message : "").toMatch(/^invalid JSON arguments for read_file: .+/);
  });
});

describe("parseCallArgs", () => {
  it("refuses JSON that is not an object", () => {
    expect(parseCallArgs("bash", "[1]")).toEqual(new Error("arguments for bash must be a JSON object, got an array"));
    expect(parseCallArgs("bash", '"ls"')).toEqual(new Error("arguments for bash must be a JSON object, got a string"));
    expect(parseCallArgs("bash", "null")).toEqual(new Error("arguments for bash must be a JSON object, got null"));
  });

  it("takes missing text as empty arguments", () => {
    expect(parseCallArgs("list_dir", undefined)).toEqual({});
  });
});
