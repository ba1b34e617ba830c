/** Writes unsigned LEB128 integers (seven bits a byte, low bits first) into arrays of known size. */

/** How many bytes `value` takes as unsigned LEB128. */
export function varintLength(value: number): number {
  let length = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) length += 1;
  return length;
}

/** Writes `value` as unsigned LEB128 at `at`; where the next byte goes. */
export function putVarint(bytes: Uint8Array, at: number, value: number): number {
  let next = at;
  let rest = value;
  // writeVarint's loop, without a callback per integer (tens of millions at 1,000,000 products).
  while (rest >= 0x80) {
    bytes[next] = (rest & 0x7f) | 0x80;
    next += 1;
    rest = Math.floor(rest / 0x80);
  }
  bytes[next] = rest;
  return next + 1;
}
