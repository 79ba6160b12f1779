// Text a server wrote (a message, a URL, a field's title) shown in the terminal: control characters are made
// visible instead of being obeyed, so a server cannot move the cursor, recolour or hide what the user reads.

// C0 controls except tab and newline, DEL, and C1 controls (which include the 8-bit escape introducer).
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function untrustedText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
