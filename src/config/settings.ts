// The user's approval rules: `permissions` from the user and project settings files, plus the
// `--allow` / `--deny` flags; the user's `mcp` limits; the `sandbox` bash commands run in; when remote
// tools are deferred behind tool search (`toolSearch`); how far a prompt may go (`maxTurns`,
// `maxBudgetUsd`). Validated
// here, once, into Rules whose origin names where each came from; a settings file is read with the
// positioned JSON reader, so its errors name `file:line:column`. Every key the readers take is classified
// in SETTINGS_KEYS, as narrowing or widening what a project's own file may do before the user trusts it.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_TOOL_SEARCH, parseRule, type Rule, type ToolSearchMode, type Verdict } from "../kernel/index.js";
import {
  ConfigError,
  fail,
  optionalField,
  readConfigJson,
  readConfigText,
  readingConfig,
  readBoolean,
  readObject,
  readPositiveInteger,
  readString,
  rejectUnknownFields,
  type JsonObjectNode,
  type ReadContext,
} from "./config-reader.js";
import { classifySettings, sectionFields, settingsField, type ClassifiedSetting, type SettingsSection } from "./settings-keys.js";

export { classifySettings, SETTINGS_KEYS, type ClassifiedSetting, type KeyClass } from "./settings-keys.js";

const SETTINGS_VERDICTS: readonly Verdict[] = ["allow", "ask", "deny"];

export interface RuleFlags {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** `$XDG_CONFIG_HOME/mca` (default `~/.config/mca`): the user's own settings and the projects they trusted. */
export function userConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg !== undefined && xdg !== "" ? xdg : join(env.HOME ?? homedir(), ".config");
  return join(configHome, "mca");
}

/** `<user config folder>/settings.json`: the user's own rules, always applied. */
export function userSettingsFile(env: Readonly<Record<string, string | undefined>>): string {
  return join(userConfigDir(env), "settings.json");
}

/**
 * A settings file as it was read, once, for everything taken from it: one of the project's own files as
 * read for the trust decision (project-trust.ts), or the user's (readUserSettings). Its path and text (or
 * why it could not be read).
 */
export interface ProjectFileRead {
  readonly path: string;
  readonly text: string | ConfigError;
}

/** `<project>/.mca/settings.json`, written by whoever wrote the repository, as read for the trust decision. */
export interface ProjectSettings {
  /** Null when the project has no such file. */
  readonly read: ProjectFileRead | null;
  /** Whether the user trusts the project, and so its allow rules. */
  readonly trusted: boolean;
}

/**
 * Every rule from the user's settings file, the project's and the flags; the first problem found, as an
 * Error naming its file and entry. The project's deny and ask rules always apply (they can only tighten);
 * its allow rules only when the user trusted the project, since a repository must not widen its own permissions.
 */
export function loadRules(userRead: ProjectFileRead | null, project: ProjectSettings, flags: RuleFlags): Rule[] | Error {
  const user = parsedOr(userRead, parseSettings, []);
  if (user instanceof Error) return user;
  const own = parsedOr(project.read, parseSettings, []);
  if (own instanceof Error) return own;
  const flagged = parseRuleFlags(flags);
  if (flagged instanceof Error) return flagged;
  return [...user, ...own.filter((rule) => project.trusted || rule.verdict !== "allow"), ...flagged];
}

/** The user's settings file (userSettingsFile), read once for its rules, sandbox and MCP limits; null when it does not exist. */
export function readUserSettings(file: string): ProjectFileRead | null {
  const text = readConfigText(file, "cannot read settings");
  return text === null ? null : { path: file, text };
}

/** What `parse` makes of a file that was read; `absent` when there is none, the reason when it could not be read. */
function parsedOr<T>(read: ProjectFileRead | null, parse: (text: string, file: string) => T | ConfigError, absent: T): T | ConfigError {
  if (read === null) return absent;
  return read.text instanceof ConfigError ? read.text : parse(read.text, read.path);
}

/** The `permissions` of one settings file; other top-level fields belong to other features and are left alone. */
export function parseSettings(text: string, file: string): Rule[] | ConfigError {
  const context: ReadContext = { file, text, env: {} };
  const root = readConfigJson(text, file);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => readPermissions(readObject(root, [], context), context));
}

function readPermissions(root: JsonObjectNode, context: ReadContext): Rule[] {
  const permissions = settingsField(root, "permissions");
  if (permissions === undefined) return [];
  const verdicts = readObject(permissions, ["permissions"], context);
  rejectUnknownFields(verdicts, ["permissions"], sectionFields("permissions"), context);
  const rules: Rule[] = [];
  // In the file's order, so that the rules read as the user wrote them.
  for (const [key, { value: entries }] of verdicts.members) {
    const verdict = SETTINGS_VERDICTS.find((candidate) => candidate === key);
    if (verdict === undefined) continue;
    const path = ["permissions", verdict];
    if (entries.kind !== "array") fail(context, path, entries.offset, "must be an array of rules");
    for (const [index, entry] of entries.items.entries()) {
      const rule = parseRule(readString(entry, [...path, index], context), verdict, context.file);
      if (rule instanceof Error) fail(context, [...path, index], entry.offset, rule.message);
      rules.push(rule);
    }
  }
  return rules;
}

/** The user's own limits on MCP servers; a field left out keeps mca's default. */
export interface McpSettings {
  /** The most tools one server offers the model (mca's default: MAX_TOOLS_PER_SERVER, 1,000). */
  readonly maxToolsPerServer?: number;
}

/**
 * The `mcp` object of the user's settings file only: how many tools a server may put before the model is
 * the user's choice, never a repository's.
 */
export function loadMcpSettings(userFile: string): McpSettings | Error {
  return parsedOr(readUserSettings(userFile), parseMcpSettings, {});
}

export function parseMcpSettings(text: string, file: string): McpSettings | ConfigError {
  return readSection(text, file, "mcp", {}, (fields, context): McpSettings => {
    const maxTools = optionalField(fields, "maxToolsPerServer");
    return maxTools === undefined ? {} : { maxToolsPerServer: readPositiveInteger(maxTools, ["mcp", "maxToolsPerServer"], context, "tools") };
  });
}

/**
 * One top-level object of a settings file (`mcp`, `sandbox`), its unknown fields rejected, handed to `read`;
 * `absent` when the file has none. Other top-level fields belong to other features and are left alone.
 */
function readSection<T>(text: string, file: string, section: SettingsSection, absent: T, read: (fields: JsonObjectNode, context: ReadContext) => T): T | ConfigError {
  const context: ReadContext = { file, text, env: {} };
  const root = readConfigJson(text, file);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => {
    const node = settingsField(readObject(root, [], context), section);
    if (node === undefined) return absent;
    const fields = readObject(node, [section], context);
    rejectUnknownFields(fields, [section], sectionFields(section), context);
    return read(fields, context);
  });
}

/** `"sandbox"` in the settings: where bash commands run (see src/tools/sandbox.ts). */
export interface SandboxSettings {
  readonly enabled: boolean;
  /** Every call gets the network. */
  readonly network: boolean;
  /** Further writable folders, absolute: as written when absolute, `~/…` under the home folder, else under the project. */
  readonly writable: readonly string[];
}

type SandboxFields = { -readonly [K in keyof SandboxSettings]?: SandboxSettings[K] };

/**
 * The user's `sandbox` settings, then the project's over them (`enabled` and `network` replaced, `writable`
 * added) only when the user trusted the project: each of them loosens the sandbox, which a repository must
 * not do for itself. The project's file is checked either way, as for its rules.
 */
export function loadSandboxSettings(userRead: ProjectFileRead | null, project: ProjectSettings, places: { readonly home: string; readonly projectDir: string }): SandboxSettings | Error {
  const parse = (text: string, file: string): SandboxFields | ConfigError => parseSandboxSettings(text, file, places);
  const user = parsedOr(userRead, parse, {});
  if (user instanceof Error) return user;
  const own = parsedOr(project.read, parse, {});
  if (own instanceof Error) return own;
  const applied = project.trusted ? own : {};
  return {
    enabled: applied.enabled ?? user.enabled ?? true,
    network: applied.network ?? user.network ?? false,
    writable: [...(user.writable ?? []), ...(applied.writable ?? [])],
  };
}

/** The `sandbox` object of one settings file, only the fields it sets. */
export function parseSandboxSettings(text: string, file: string, places: { readonly home: string; readonly projectDir: string }): SandboxFields | ConfigError {
  return readSection(text, file, "sandbox", {}, (fields, context) => {
    const read: SandboxFields = {};
    const enabled = optionalField(fields, "enabled");
    if (enabled !== undefined) read.enabled = readBoolean(enabled, ["sandbox", "enabled"], context);
    const network = optionalField(fields, "network");
    if (network !== undefined) read.network = readBoolean(network, ["sandbox", "network"], context);
    const writable = optionalField(fields, "writable");
    if (writable !== undefined) {
      if (writable.kind !== "array") fail(context, ["sandbox", "writable"], writable.offset, "must be an array of folders");
      read.writable = writable.items.map((item, index) => {
        const folder = readString(item, ["sandbox", "writable", index], context);
        if (folder === "") fail(context, ["sandbox", "writable", index], item.offset, "must not be empty");
        return folder === "~" || folder.startsWith("~/") ? join(places.home, folder.slice(1)) : resolve(places.projectDir, folder);
      });
    }
    return read;
  });
}

/**
 * `"toolSearch"` in the settings: when remote tools are deferred behind tool_search. The user's setting,
 * then a trusted project's over it (an untrusted one's is checked all the same: `never` with thousands of
 * tools would fill every request). DEFAULT_TOOL_SEARCH when neither says.
 */
export function loadToolSearch(userRead: ProjectFileRead | null, project: ProjectSettings): ToolSearchMode | Error {
  const user = parsedOr(userRead, parseToolSearch, undefined);
  if (user instanceof Error) return user;
  const own = parsedOr(project.read, parseToolSearch, undefined);
  if (own instanceof Error) return own;
  return (project.trusted ? own : undefined) ?? user ?? DEFAULT_TOOL_SEARCH;
}

const TOOL_SEARCH_SHAPE = 'must be "auto", "auto:<percent of the context window>" (above 0, at most 100), "always" or "never"';

/** The `toolSearch` field of one settings file; undefined when it has none. */
export function parseToolSearch(text: string, file: string): ToolSearchMode | undefined | ConfigError {
  const context: ReadContext = { file, text, env: {} };
  const root = readConfigJson(text, file);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => {
    const node = settingsField(readObject(root, [], context), "toolSearch");
    if (node === undefined) return undefined;
    const value = readString(node, ["toolSearch"], context);
    if (value === "always" || value === "never") return { kind: value };
    if (value === "auto") return DEFAULT_TOOL_SEARCH;
    const percent = /^auto:(\d+(?:\.\d+)?)%?$/.exec(value)?.[1];
    const share = percent === undefined ? NaN : Number(percent);
    if (!(share > 0 && share <= 100)) fail(context, ["toolSearch"], node.offset, `${TOOL_SEARCH_SHAPE}, not ${JSON.stringify(value.slice(0, 40))}`);
    return { kind: "auto", percent: share };
  });
}

/** How far one prompt may go (the chat's, and each of -p's): no limit where neither is set. */
export interface PromptLimits {
  /** Model turns per prompt (`"maxTurns"`, `--max-turns`). */
  readonly maxTurns?: number;
  /** US dollars one prompt may spend, estimated from list prices (`"maxBudgetUsd"`, `--max-budget-usd`). */
  readonly maxBudgetUsd?: number;
}

/**
 * `"maxTurns"` and `"maxBudgetUsd"`: the user's, then a trusted project's over them field by field (an
 * untrusted project's are checked all the same). A command-line flag, applied by the caller, wins over both.
 */
export function loadPromptLimits(userRead: ProjectFileRead | null, project: ProjectSettings): PromptLimits | Error {
  const user = parsedOr(userRead, parsePromptLimits, {});
  if (user instanceof Error) return user;
  const own = parsedOr(project.read, parsePromptLimits, {});
  if (own instanceof Error) return own;
  return { ...user, ...(project.trusted ? own : {}) };
}

/** The limits one settings file sets. */
export function parsePromptLimits(text: string, file: string): PromptLimits | ConfigError {
  const context: ReadContext = { file, text, env: {} };
  const root = readConfigJson(text, file);
  if (root instanceof ConfigError) return root;
  return readingConfig(() => {
    const fields = readObject(root, [], context);
    const turns = settingsField(fields, "maxTurns");
    const budget = settingsField(fields, "maxBudgetUsd");
    if (budget !== undefined && !(budget.kind === "number" && budget.value > 0 && Number.isFinite(budget.value))) fail(context, ["maxBudgetUsd"], budget.offset, "must be a positive number (US dollars)");
    return {
      ...(turns === undefined ? {} : { maxTurns: readPositiveInteger(turns, ["maxTurns"], context, "model turns") }),
      ...(budget?.kind === "number" ? { maxBudgetUsd: budget.value } : {}),
    };
  });
}

/** A project's settings file as the trust question shows it: what trusting it would let it do. */
export interface SettingsAsWritten {
  readonly allows: readonly Rule[];
  /** Every other key that widens (`permissions.allow` is in `allows`, rule by rule), in the file's order. */
  readonly widening: readonly ClassifiedSetting[];
}

/** Not where anything is: `writable` folders are only checked on the way to the trust question, never used. */
const CHECKED_ONLY = { home: "/", projectDir: "/" };

/**
 * The allow rules and other widening keys of a project's settings file, once every reader has checked its
 * part: a file mca would refuse at start is not one to offer for trust.
 */
export function settingsAsWritten(text: string, file: string): SettingsAsWritten | ConfigError {
  const rules = parseSettings(text, file);
  if (rules instanceof ConfigError) return rules;
  for (const checked of [parseSandboxSettings(text, file, CHECKED_ONLY), parseToolSearch(text, file), parseMcpSettings(text, file), parsePromptLimits(text, file)]) {
    if (checked instanceof ConfigError) return checked;
  }
  const root = readConfigJson(text, file);
  const keys = root instanceof ConfigError || root.kind !== "object" ? [] : classifySettings(root);
  return {
    allows: rules.filter((rule) => rule.verdict === "allow"),
    widening: keys.filter((key) => key.class === "widens" && key.path !== "permissions.allow"),
  };
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
