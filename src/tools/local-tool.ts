// What every local tool is made of besides its own work: argument readers for its `parse`, each
// returning the typed value or an Error naming the argument, and the two shapes of its result (errors
// are values the model can read, never throws).
import type { ToolArgs, ToolResult } from "../kernel/index.js";

export function okResult(text: string): ToolResult {
  return { text, isError: false };
}

export function errorResult(text: string): ToolResult {
  return { text, isError: true };
}

export function requiredString(args: ToolArgs, name: string): string | Error {
  const value = args[name];
  if (typeof value !== "string") return new Error(`argument "${name}" must be a string`);
  return value;
}

export function optionalString(args: ToolArgs, name: string): string | undefined | Error {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return new Error(`argument "${name}" must be a string`);
  return value;
}

export function optionalBoolean(args: ToolArgs, name: string): boolean | undefined | Error {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "boolean" ? value : new Error(`argument "${name}" must be true or false`);
}

export function optionalInteger(
  args: ToolArgs,
  name: string,
  range: { readonly min: number; readonly max: number },
): number | undefined | Error {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max) {
    return new Error(`argument "${name}" must be an integer from ${range.min} to ${range.max}`);
  }
  return value;
}
