// The icons a server gives its tools, prompts and resources (2025-11-25 `Icon`: `src`, `mimeType`, `sizes`,
// `theme`), kept for scripts (`mca tools --json`) and never drawn in the terminal. A host that shows them loads
// `src`, so only what is safe to hand one is kept: an https URL (no credentials in it) or a data URI of an image
// type, each at most MAX_ICON_SRC_CHARS; anything else is dropped, never repaired.
import type { ToolIcon } from "../kernel/index.js";
import { isJsonObject } from "./jsonrpc.js";

/** `sizes`: `48x48`, `any` — WxH in pixels, or any size (an SVG). */
export type Icon = ToolIcon;

/** The image types an icon may be; a `mimeType` or data URI of any other type drops the icon. */
const ICON_MEDIA_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon"];
/** A data URI of a small icon fits many times over; one server must not fill a script's output with pictures. */
export const MAX_ICON_SRC_CHARS = 65_536;
/** Icons kept per tool, prompt or resource. */
export const MAX_ICONS = 8;
const MAX_SIZES = 16;
const SIZE = /^(?:[1-9]\d{0,4}x[1-9]\d{0,4}|any)$/u;
/** `data:image/png;base64,…` — the media type, optional parameters, base64 or not. */
const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,]*)*)(;base64)?,/iu;

/** The media type a `src` says it is: a data URI's own; undefined for an https URL. An Error for anything else. */
function srcType(src: string): string | undefined | Error {
  if (src.length > MAX_ICON_SRC_CHARS) return new Error("too long");
  if (src.toLowerCase().startsWith("data:")) {
    const type = DATA_URI.exec(src)?.[1]?.toLowerCase();
    if (type === undefined || !ICON_MEDIA_TYPES.includes(type)) return new Error("not a data URI of an image");
    return type;
  }
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return new Error("not a URL");
  }
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "") return new Error("not a plain https URL");
  return undefined;
}

function sanitizeIcon(value: unknown): Icon | undefined {
  if (!isJsonObject(value) || typeof value.src !== "string") return undefined;
  const type = srcType(value.src);
  if (type instanceof Error) return undefined;
  const { mimeType, sizes, theme } = value;
  if (mimeType !== undefined && (typeof mimeType !== "string" || !ICON_MEDIA_TYPES.includes(mimeType.toLowerCase()))) return undefined;
  // A data URI that says one type and a mimeType that says another: which one a host believes is its guess.
  if (typeof mimeType === "string" && type !== undefined && mimeType.toLowerCase() !== type) return undefined;
  const keptSizes = Array.isArray(sizes) ? sizes.filter((size): size is string => typeof size === "string" && SIZE.test(size)).slice(0, MAX_SIZES) : [];
  return {
    src: value.src,
    ...(typeof mimeType === "string" ? { mimeType } : {}),
    ...(keptSizes.length === 0 ? {} : { sizes: keptSizes }),
    ...(theme === "light" || theme === "dark" ? { theme } : {}),
  };
}

/** The icons of a listed item that are safe to pass on, in the server's order; undefined when none is. */
export function sanitizeIcons(value: unknown): readonly Icon[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const icons: Icon[] = [];
  for (const item of value) {
    if (icons.length >= MAX_ICONS) break;
    const icon = sanitizeIcon(item);
    if (icon !== undefined) icons.push(icon);
  }
  return icons.length === 0 ? undefined : icons;
}
