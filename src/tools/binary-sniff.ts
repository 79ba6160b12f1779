// Tells text from binary the way git does: a NUL byte in the first few kilobytes means binary.

const SNIFF_BYTES = 8_000;

export function looksBinary(content: Uint8Array): boolean {
  return content.subarray(0, SNIFF_BYTES).includes(0);
}
