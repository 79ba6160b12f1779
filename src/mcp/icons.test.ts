import { describe, expect, it } from "vitest";
import { MAX_ICON_SRC_CHARS, MAX_ICONS, sanitizeIcons } from "./icons.js";

const PNG_DATA = "data:image/png;base64,iVBORw0KGgo=";

describe("sanitizeIcons", () => {
  it("keeps an https icon and a data URI of an image, with their mime type, sizes and theme", () => {
    expect(
      sanitizeIcons([
        { src: "https://example.com/icon.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" },
        { src: PNG_DATA, mimeType: "image/png", sizes: ["48x48", "96x96"] },
      ]),
    ).toEqual([
      { src: "https://example.com/icon.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" },
      { src: PNG_DATA, mimeType: "image/png", sizes: ["48x48", "96x96"] },
    ]);
  });

  it("drops an icon a host should not load: another scheme, credentials in the URL, a data URI of no image, a type that is no image", () => {
    expect(
      sanitizeIcons([
        { src: "http://example.com/icon.png" },
        { src: "javascript:alert(1)" },
        { src: "file:///etc/passwd" },
        { src: "https://user:secret@example.com/icon.png" },
        { src: "data:text/html;base64,PHNjcmlwdD4=" },
        { src: "https://example.com/icon", mimeType: "text/html" },
        { src: PNG_DATA, mimeType: "image/gif" },
        { src: `data:image/png;base64,${"A".repeat(MAX_ICON_SRC_CHARS)}` },
        { mimeType: "image/png" },
        "https://example.com/icon.png",
      ]),
    ).toBeUndefined();
  });

  it("keeps only well-formed sizes, and a theme only when it is light or dark", () => {
    expect(sanitizeIcons([{ src: "https://example.com/i.png", sizes: ["48x48", "big", 7, "0x5", "48x48\n"], theme: "sepia" }])).toEqual([
      { src: "https://example.com/i.png", sizes: ["48x48"] },
    ]);
  });

  it("keeps at most MAX_ICONS, and nothing of what is not a list", () => {
    const many = Array.from({ length: MAX_ICONS + 3 }, (_, index) => ({ src: `https://example.com/${index}.png` }));
    expect([sanitizeIcons(many)?.length, sanitizeIcons({ src: "https://example.com/i.png" })]).toEqual([MAX_ICONS, undefined]);
  });
});
