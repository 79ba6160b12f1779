// What each key of a settings file is to a repository that writes it into its own `.mca/settings.json`: the
// table every settings reader takes its keys from, and the classification of a file's keys as written.
import { formatPath, optionalField, type JsonObjectNode } from "./config-reader.js";
import type { JsonNode } from "./json-reader.js";

export type KeyClass = "narrows" | "widens";

/**
 * What each key of a settings file does when a repository writes it into its own `.mca/settings.json`:
 * `narrows` applies whether or not the user trusted the project (a deny or ask rule can only tighten);
 * `widens` applies only once the user has trusted it, and the trust question shows it with its value. A top
 * level key is classified whole, or field by field when it holds an object (whose unknown fields are an
 * error). The readers below take the keys they read from here, so none is read without a class; a key
 * missing here (a misspelling, or one a later mca reads) counts as widening. `mcp` is read from the user's
 * own file only, and a project's counts as widening all the same.
 */
export const SETTINGS_KEYS = {
  permissions: { allow: "widens", ask: "narrows", deny: "narrows" },
  sandbox: { enabled: "widens", network: "widens", writable: "widens" },
  mcp: { maxToolsPerServer: "widens" },
  toolSearch: "widens",
  maxTurns: "widens",
  maxBudgetUsd: "widens",
} as const satisfies Readonly<Record<string, KeyClass | Readonly<Record<string, KeyClass>>>>;

export type SettingsKey = keyof typeof SETTINGS_KEYS;
/** The top-level keys whose value is an object of classified fields. */
export type SettingsSection = { [K in SettingsKey]: (typeof SETTINGS_KEYS)[K] extends KeyClass ? never : K }[SettingsKey];

/** The fields a section accepts: exactly those the table classifies. */
export function sectionFields(section: SettingsSection): readonly string[] {
  return Object.keys(SETTINGS_KEYS[section]);
}

/** A top-level key of a settings file; only a classified key can be asked for. */
export function settingsField(root: JsonObjectNode, key: SettingsKey): JsonNode | undefined {
  return optionalField(root, key);
}

/** One key a settings file sets, with its class: `known` is false for a key SETTINGS_KEYS does not name. */
export interface ClassifiedSetting {
  /** `sandbox.writable`, `toolSearch`: where the key is, as errors name it. */
  readonly path: string;
  readonly class: KeyClass;
  readonly known: boolean;
  /** The value as written, as compact JSON. */
  readonly value: string;
}

const CLASSES: ReadonlyMap<string, KeyClass | Readonly<Record<string, KeyClass>>> = new Map(Object.entries(SETTINGS_KEYS));

/**
 * Every key of a settings file's top-level object, and every field of a section, in the file's order, with
 * its class. A section that is not an object is one widening key (its reader rejects it all the same).
 */
export function classifySettings(root: JsonObjectNode): ClassifiedSetting[] {
  const classified: ClassifiedSetting[] = [];
  for (const [key, { value }] of root.members) {
    const row = CLASSES.get(key);
    if (typeof row === "object" && value.kind === "object") {
      const fields = new Map(Object.entries(row));
      for (const [field, member] of value.members) {
        const fieldClass = fields.get(field);
        classified.push({ path: formatPath([key, field]), class: fieldClass ?? "widens", known: fieldClass !== undefined, value: writtenJson(member.value) });
      }
      continue;
    }
    classified.push({ path: formatPath([key]), class: typeof row === "string" ? row : "widens", known: row !== undefined, value: writtenJson(value) });
  }
  return classified;
}

/** A node as compact JSON: the value as the file wrote it, less its spacing. */
function writtenJson(node: JsonNode): string {
  return JSON.stringify(plainValue(node));
}

function plainValue(node: JsonNode): unknown {
  switch (node.kind) {
    case "object":
      // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
      return Object.fromEntries([...node.members].map(([key, member]) => [key, plainValue(member.value)]));
    case "array":
      return node.items.map(plainValue);
    case "string":
    case "number":
    case "boolean":
      return node.value;
    case "null":
      return null;
    default: {
      const unknown: never = node;
      throw new Error(`unknown JSON node ${JSON.stringify(unknown)}`);
    }
  }
}
