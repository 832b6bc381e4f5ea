/**
 * A base64url signature with one character changed. The first character after `start` is the one
 * changed: a signature's last character carries only some of its bits (the rest are padding), and
 * a test that edits the tail fails now and then on a signature that already ends that way.
 */
export function tamperedSignature(signature: string, start = 0): string {
  const changed = signature[start] === 'A' ? 'B' : 'A';
  return `${signature.slice(0, start)}${changed}${signature.slice(start + 1)}`;
}
