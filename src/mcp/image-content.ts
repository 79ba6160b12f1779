// An image a server sends (an `image` block, or an embedded resource's blob) checked before the model
// sees it: valid base64, a media type the model takes, bytes that really are that format (read from the
// file's header, never decoded further), and within the Messages API's limits. Whatever fails is a one-line
// note in the result's text instead: server data is untrusted, and one bad image must not fail the request.
import { formatBytes, IMAGE_MEDIA_TYPES, type ImageMediaType, type ToolImage } from "../kernel/index.js";

/**
 * The Messages API's limits (https://docs.claude.com/en/docs/build-with-claude/vision): at most 5 MB per
 * image, counted on the base64 text sent, and at most 8000×8000 pixels.
 */
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_SIDE_PX = 8000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The checked image, or an Error whose message says in a few words why the model cannot have it. */
export function checkImage(data: string, mimeType: string): ToolImage | Error {
  const mediaType = IMAGE_MEDIA_TYPES.find((known) => known === mimeType.toLowerCase());
  if (mediaType === undefined) return new Error("a format the model does not take");
  if (data.length % 4 !== 0 || !BASE64.test(data)) return new Error("not valid base64");
  const byteCount = (data.length / 4) * 3 - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  if (data.length > MAX_IMAGE_BASE64_BYTES) return new Error(`${formatBytes(byteCount)}, too large for the model (${formatBytes(data.length)} as base64, over the API's 5 MB)`);
  const size = readImageSize(Buffer.from(data, "base64"));
  if (size === null || size.mediaType !== mediaType) return new Error(`${formatBytes(byteCount)}, not a readable ${mediaType.slice("image/".length).toUpperCase()} file`);
  const { width, height } = size;
  if (width > MAX_IMAGE_SIDE_PX || height > MAX_IMAGE_SIDE_PX) {
    return new Error(`${width}×${height}, ${formatBytes(byteCount)}, too large for the model (at most ${MAX_IMAGE_SIDE_PX}×${MAX_IMAGE_SIDE_PX} pixels)`);
  }
  return { mediaType, data, bytes: byteCount, width, height };
}

// ---------------------------------------------------------------------------------------------------
// Dimensions from the first bytes of each format, as its specification lays them out.

export interface ImageSize {
  readonly mediaType: ImageMediaType;
  readonly width: number;
  readonly height: number;
}

/** The format and dimensions the header declares; null when the bytes are none of the four formats, or cut short. */
export function readImageSize(bytes: Uint8Array): ImageSize | null {
  for (const reader of READERS) {
    if (!startsWith(bytes, reader.magic)) continue;
    const size = reader.read(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return size === null || size.width === 0 || size.height === 0 ? null : { mediaType: reader.mediaType, ...size };
  }
  return null;
}

type Dimensions = { readonly width: number; readonly height: number };

const READERS: ReadonlyArray<{ readonly mediaType: ImageMediaType; readonly magic: readonly number[]; readonly read: (view: DataView) => Dimensions | null }> = [
  // PNG: the signature, then the IHDR chunk first: width and height as 32-bit big-endian at 16 and 20.
  { mediaType: "image/png", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], read: readPng },
  // GIF87a / GIF89a: the logical screen's width and height as 16-bit little-endian at 6 and 8.
  { mediaType: "image/gif", magic: [0x47, 0x49, 0x46, 0x38], read: (view) => (view.byteLength < 10 ? null : { width: view.getUint16(6, true), height: view.getUint16(8, true) }) },
  { mediaType: "image/jpeg", magic: [0xff, 0xd8, 0xff], read: readJpeg },
  // RIFF....WEBP, checked in readWebp.
  { mediaType: "image/webp", magic: [0x52, 0x49, 0x46, 0x46], read: readWebp },
];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}

function readPng(view: DataView): Dimensions | null {
  if (view.byteLength < 24 || ascii(view, 12, 4) !== "IHDR") return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * JPEG: segments from the start, each `FF <marker>` and (but for the standalone markers) a 16-bit length
 * that counts itself; the first start-of-frame (C0–CF but C4, C8 and CC) holds height then width.
 */
function readJpeg(view: DataView): Dimensions | null {
  let offset = 2;
  while (offset + 4 <= view.byteLength) {
    if (view.getUint8(offset) !== 0xff) return null;
    const marker = view.getUint8(offset + 1);
    if (marker === 0xff) {
      offset += 1; // a fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return offset + 9 <= view.byteLength ? { width: view.getUint16(offset + 7), height: view.getUint16(offset + 5) } : null;
    offset += 2 + view.getUint16(offset + 2);
  }
  return null;
}

/** WebP: the first chunk says which of the three encodings follows, and each keeps its size differently. */
function readWebp(view: DataView): Dimensions | null {
  if (view.byteLength < 30 || ascii(view, 8, 4) !== "WEBP") return null;
  switch (ascii(view, 12, 4)) {
    case "VP8 ":
      // Lossy: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height (2 bits of scale above).
      if (view.getUint8(23) !== 0x9d || view.getUint8(24) !== 0x01 || view.getUint8(25) !== 0x2a) return null;
      return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    case "VP8L": {
      // Lossless: the signature 2F, then width−1 and height−1 in 14 bits each, least significant first.
      if (view.getUint8(20) !== 0x2f) return null;
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case "VP8X":
      // Extended: the canvas's width−1 and height−1 as 24-bit little-endian at 24 and 27.
      return { width: uint24(view, 24) + 1, height: uint24(view, 27) + 1 };
    default:
      return null;
  }
}

function uint24(view: DataView, offset: number): number {
  return view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getUint8(offset + 2) << 16);
}

function ascii(view: DataView, offset: number, length: number): string {
  let text = "";
  for (let index = offset; index < offset + length; index += 1) text += String.fromCharCode(view.getUint8(index));
  return text;
}
