import { describe, expect, it } from "vitest";
import { checkImage, MAX_IMAGE_BASE64_BYTES, readImageSize } from "./image-content.js";

// Headers laid out byte by byte as each format's specification has them; the pixel data after them is
// never read, so a few filler bytes stand for it.

const be32 = (value: number): number[] => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
const be16 = (value: number): number[] => [(value >>> 8) & 0xff, value & 0xff];
const le16 = (value: number): number[] => [value & 0xff, (value >>> 8) & 0xff];
const le24 = (value: number): number[] => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
const text = (value: string): number[] => [...value].map((char) => char.charCodeAt(0));
const filler = (count: number): number[] => new Array<number>(count).fill(0);

const png = (width: number, height: number): number[] => [
  ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  ...be32(13),
  ...text("IHDR"),
  ...be32(width),
  ...be32(height),
  ...[8, 6, 0, 0, 0],
  ...filler(4),
];
const gif = (width: number, height: number): number[] => [...text("GIF89a"), ...le16(width), ...le16(height), ...filler(3)];
// SOI, an APP0 segment (JFIF, 16 bytes with its length), a fill byte, then SOF2 (progressive): length, precision, height, width.
const jpeg = (width: number, height: number): number[] => [
  ...[0xff, 0xd8],
  ...[0xff, 0xe0, ...be16(16), ...text("JFIF"), 0, ...filler(9)],
  0xff,
  ...[0xff, 0xc2, ...be16(17), 8, ...be16(height), ...be16(width), 3, ...filler(9)],
];
const riff = (chunk: string, body: number[]): number[] => [...text("RIFF"), ...le24(4 + 8 + body.length), 0, ...text("WEBP"), ...text(chunk), ...le24(body.length), 0, ...body];
const webpLossy = (width: number, height: number): number[] => riff("VP8 ", [...filler(3), 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height), ...filler(4)]);
const webpLossless = (width: number, height: number): number[] => {
  const bits = (width - 1) | ((height - 1) << 14);
  return riff("VP8L", [0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff, ...filler(5)]);
};
const webpExtended = (width: number, height: number): number[] => riff("VP8X", [0x10, 0, 0, 0, ...le24(width - 1), ...le24(height - 1), ...filler(2)]);

const bytes = (values: number[]): Uint8Array => Uint8Array.from(values);
const base64 = (values: number[]): string => Buffer.from(values).toString("base64");

describe("readImageSize", () => {
  it("reads the format and dimensions of each of the four formats from its header", () => {
    expect(
      [png(1280, 720), gif(320, 200), jpeg(4032, 3024), webpLossy(640, 480), webpLossless(3, 2), webpExtended(10000, 7)].map((values) => readImageSize(bytes(values))),
    ).toEqual([
      { mediaType: "image/png", width: 1280, height: 720 },
      { mediaType: "image/gif", width: 320, height: 200 },
      { mediaType: "image/jpeg", width: 4032, height: 3024 },
      { mediaType: "image/webp", width: 640, height: 480 },
      { mediaType: "image/webp", width: 3, height: 2 },
      { mediaType: "image/webp", width: 10000, height: 7 },
    ]);
  });

  it("finds nothing in other bytes, in a header cut short, or in a zero dimension", () => {
    expect([text("%PDF-1.7 and more bytes"), png(20, 20).slice(0, 20), jpeg(5, 5).slice(0, 28), riff("VP8 ", filler(3)), png(0, 10), []].map((values) => readImageSize(bytes(values)))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("checkImage", () => {
  it("gives the image with its decoded size and dimensions", () => {
    const data = base64(png(1280, 720));
    expect(checkImage(data, "image/png")).toEqual({ mediaType: "image/png", data, bytes: 33, width: 1280, height: 720 });
  });

  it("refuses a media type the model does not take", () => {
    expect(checkImage(base64(png(1, 1)), "image/svg+xml")).toEqual(new Error("a format the model does not take"));
  });

  it("refuses data that is not base64", () => {
    expect([checkImage("aGk", "image/png"), checkImage("aG!k", "image/png"), checkImage("aGk=\n", "image/png")]).toEqual([
      new Error("not valid base64"),
      new Error("not valid base64"),
      new Error("not valid base64"),
    ]);
  });

  it("refuses bytes that are not the declared format", () => {
    expect([checkImage(base64(gif(2, 2)), "image/png"), checkImage(base64(text("hello")), "image/jpeg")]).toEqual([
      new Error("13 bytes, not a readable PNG file"),
      new Error("5 bytes, not a readable JPEG file"),
    ]);
  });

  it("refuses an image over the API's 5 MB, saying its size", () => {
    const header = base64(png(100, 100));
    const data = header + "A".repeat(MAX_IMAGE_BASE64_BYTES - header.length + 4);
    expect(checkImage(data, "image/png")).toEqual(new Error("3.9 MB, too large for the model (5.2 MB as base64, over the API's 5 MB)"));
  });

  it("accepts an image of exactly 5 MB of base64", () => {
    const header = base64(png(100, 100));
    const data = header + "A".repeat(MAX_IMAGE_BASE64_BYTES - header.length);
    expect(checkImage(data, "image/png")).toMatchObject({ mediaType: "image/png", bytes: (MAX_IMAGE_BASE64_BYTES / 4) * 3, width: 100, height: 100 });
  });

  it("refuses an image wider or taller than 8000 pixels", () => {
    expect(checkImage(base64(webpExtended(8001, 100)), "image/webp")).toEqual(new Error("8001×100, 32 bytes, too large for the model (at most 8000×8000 pixels)"));
  });
});
