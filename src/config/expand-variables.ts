// `${VAR}` and `${VAR:-default}` in config strings, expanded from an environment passed in as an argument
// (this module never reads process.env).

export type Env = Readonly<Record<string, string | undefined>>;

export type Expansion = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULT_SEPARATOR = ":-";

/** Own properties only, so `${constructor}` is not found on a plain object's prototype. */
function lookup(env: Env, name: string): string | undefined {
  if (!Object.hasOwn(env, name)) return undefined;
  const value = env[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * `${NAME}` is the variable's value (an empty value counts as set); `${NAME:-default}` falls back to the
 * default text when the variable is unset or empty, as in the shell. The default is taken literally up to
 * the first `}`. A `$` not followed by `{` is kept as it is.
 */
export function expandVariables(text: string, env: Env): Expansion {
  let expanded = "";
  let index = 0;
  for (;;) {
    const start = text.indexOf("${", index);
    if (start < 0) return { ok: true, value: expanded + text.slice(index) };
    const end = text.indexOf("}", start + 2);
    if (end < 0) return { ok: false, reason: `"\${" at character ${start + 1} is never closed with "}"` };
    const body = text.slice(start + 2, end);
    const separator = body.indexOf(DEFAULT_SEPARATOR);
    const name = separator < 0 ? body : body.slice(0, separator);
    if (!VARIABLE_NAME.test(name)) {
      return { ok: false, reason: `"\${${body}}" is not a variable reference (write \${NAME} or \${NAME:-default})` };
    }
    const value = lookup(env, name);
    const fallback = separator < 0 ? undefined : body.slice(separator + DEFAULT_SEPARATOR.length);
    const replacement = fallback !== undefined && (value === undefined || value === "") ? fallback : value;
    if (replacement === undefined) return { ok: false, reason: `variable ${name} is not set` };
    expanded += text.slice(index, start) + replacement;
    index = end + 1;
  }
}
