// The user's approval rules: `permissions` from the user and project settings files, plus the
// `--allow` / `--deny` flags. Validated here, once, into Rules whose origin names where each came from.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Rule, Verdict } from "../kernel/index.js";
import { parseRule } from "../kernel/index.js";

const SETTINGS_VERDICTS: readonly Verdict[] = ["allow", "ask", "deny"];

export interface RuleFlags {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** `$XDG_CONFIG_HOME/mca/settings.json` (default `~/.config/mca/settings.json`), then `<project>/.mca/settings.json`. */
export function settingsFiles(projectDir: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg !== undefined && xdg !== "" ? xdg : join(env.HOME ?? homedir(), ".config");
  return [join(configHome, "mca", "settings.json"), join(projectDir, ".mca", "settings.json")];
}

/** Every rule from the files and the flags; the first problem found, as an Error naming its file and entry. */
export async function loadRules(files: readonly string[], flags: RuleFlags): Promise<Rule[] | Error> {
  const rules: Rule[] = [];
  for (const file of files) {
    const text = await readSettingsText(file);
    if (text instanceof Error) return text;
    if (text === null) continue;
    const parsed = parseSettings(text, file);
    if (parsed instanceof Error) return parsed;
    rules.push(...parsed);
  }
  const flagged = parseRuleFlags(flags);
  if (flagged instanceof Error) return flagged;
  return [...rules, ...flagged];
}

/** The `permissions` of one settings file; other top-level fields belong to other features and are left alone. */
export function parseSettings(text: string, file: string): Rule[] | Error {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return new Error(`${file}: invalid JSON: ${describe(error)}`);
  }
  if (!isPlainObject(data)) return new Error(`${file}: must be a JSON object`);
  const permissions = data.permissions;
  if (permissions === undefined) return [];
  if (!isPlainObject(permissions)) return new Error(`${file}: permissions: must be an object`);
  const rules: Rule[] = [];
  for (const [key, entries] of Object.entries(permissions)) {
    const verdict = SETTINGS_VERDICTS.find((candidate) => candidate === key);
    if (verdict === undefined) {
      return new Error(`${file}: permissions.${key}: unknown field (expected allow, ask or deny)`);
    }
    if (!Array.isArray(entries)) return new Error(`${file}: permissions.${key}: must be an array of rules`);
    for (const [index, entry] of entries.entries()) {
      const place = `${file}: permissions.${key}[${index}]`;
      if (typeof entry !== "string") return new Error(`${place}: must be a string`);
      const rule = parseRule(entry, verdict, file);
      if (rule instanceof Error) return new Error(`${place}: ${rule.message}`);
      rules.push(rule);
    }
  }
  return rules;
}

export function parseRuleFlags(flags: RuleFlags): Rule[] | Error {
  const rules: Rule[] = [];
  const given: ReadonlyArray<readonly [Verdict, readonly string[]]> = [
    ["allow", flags.allow],
    ["deny", flags.deny],
  ];
  for (const [verdict, texts] of given) {
    for (const text of texts) {
      const rule = parseRule(text, verdict, `--${verdict}`);
      if (rule instanceof Error) return new Error(`--${verdict} ${JSON.stringify(text)}: ${rule.message}`);
      rules.push(rule);
    }
  }
  return rules;
}

async function readSettingsText(file: string): Promise<string | null | Error> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (isErrnoException(error) && error.code === "ENOENT") return null;
    return new Error(`${file}: cannot read settings: ${describe(error)}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
