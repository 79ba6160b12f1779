import { describe, expect, it } from "vitest";
import { createSpinner } from "./spinner.js";

describe("createSpinner", () => {
  it("draws a frame with its label at once and erases the line on stop", () => {
    const written: string[] = [];
    const spinner = createSpinner((text) => written.push(text), true);
    spinner.start("thinking");
    spinner.stop();
    expect(written).toEqual(["\r\u001b[K⠋ thinking", "\r\u001b[K"]);
  });

  it("counts the seconds of the work it shows and cuts a long label to the terminal, keeping the time in view", () => {
    const written: string[] = [];
    const spinner = createSpinner((text) => written.push(text), true, () => 30);
    spinner.start(`bash ${"x".repeat(100)}`, Date.now() - 3_200);
    spinner.stop();
    const line = written[0]?.replace("\r\u001b[K", "") ?? "";
    expect(line.endsWith(" · 3 s")).toBe(true);
    expect(line.length).toBeLessThanOrEqual(30);
    expect(line).toContain("…");
  });

  it("ends its line with the hint after the time, and leaves the hint out where the line is too narrow for it", () => {
    const lines = [60, 30].map((columns) => {
      const written: string[] = [];
      const spinner = createSpinner((text) => written.push(text), true, () => columns, "esc to interrupt");
      spinner.start(`bash ${"x".repeat(100)}`, Date.now() - 3_200);
      spinner.stop();
      return written[0]?.replace("\r\u001b[K", "") ?? "";
    });
    expect(lines.map((line) => [line.length <= 60, line.slice(line.indexOf("…"))])).toEqual([
      [true, "… · 3 s · esc to interrupt"],
      [true, "… · 3 s"],
    ]);
  });

  it("steps aside for a line and comes back with its label, but only if it was showing", () => {
    const written: string[] = [];
    const spinner = createSpinner((text) => written.push(text), true);
    spinner.aside(() => written.push("before\n"));
    spinner.start("bash ls");
    spinner.aside(() => written.push("a line\n"));
    spinner.stop();
    expect(written).toEqual(["before\n", "\r\u001b[K⠋ bash ls", "\r\u001b[K", "a line\n", "\r\u001b[K⠙ bash ls", "\r\u001b[K"]);
  });

  it("draws nothing when disabled, and stop without start writes nothing", () => {
    const written: string[] = [];
    const disabled = createSpinner((text) => written.push(text), false);
    disabled.start("thinking");
    disabled.stop();
    createSpinner((text) => written.push(text), true).stop();
    expect(written).toEqual([]);
  });
});
