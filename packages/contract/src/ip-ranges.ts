/**
 * IPv4 and IPv6 addresses and CIDR ranges, read and written in one canonical form: a bare address is the range of
 * that one address (/32 or /128), the bits past the prefix are cleared, IPv6 is written as RFC 5952 says (lower
 * case, the longest run of zero groups as `::`), and an IPv4 address written as IPv6 (`::ffff:203.0.113.7`) is
 * IPv4. No Node.js here: the console checks a list with the same code the API keeps it with.
 */
const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

interface Address {
  family: 4 | 6;
  /** 4 or 16 bytes. */
  bytes: number[];
}

function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => OCTET.test(part)) ? parts.map(Number) : null;
}

function ipv6Bytes(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const words = (groups: string[]): number[] | null => {
    const out: number[] = [];
    for (const [index, group] of groups.entries()) {
      if (index === groups.length - 1 && group.includes('.')) {
        const v4 = ipv4Bytes(group);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (HEX_GROUP.test(group)) out.push(parseInt(group, 16));
      else return null;
    }
    return out;
  };
  const head = words(groupsOf(halves[0]!));
  // Only the last group may be an IPv4 address: the head may hold one only when nothing follows it.
  const tail = halves.length === 2 ? words(groupsOf(halves[1]!)) : [];
  if (!head || !tail) return null;
  if (halves.length === 2 && groupsOf(halves[0]!).some((group) => group.includes('.'))) return null;
  const width = head.length + tail.length;
  if (halves.length === 2 ? width > 7 : width !== 8) return null;
  const all = [...head, ...Array<number>(8 - width).fill(0), ...tail];
  return all.flatMap((word) => [word >> 8, word & 0xff]);
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const isMapped = (bytes: number[]) => bytes.length === 16 && MAPPED_PREFIX.every((byte, index) => bytes[index] === byte);

function parseAddress(text: string): Address | null {
  const v4 = ipv4Bytes(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = ipv6Bytes(text);
  if (!v6) return null;
  return isMapped(v6) ? { family: 4, bytes: v6.slice(12) } : { family: 6, bytes: v6 };
}

interface Range extends Address {
  prefix: number;
}

function parseRange(text: string): Range | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const v4 = ipv4Bytes(address);
  const v6 = v4 ? null : ipv6Bytes(address);
  if (!v4 && !v6) return null;
  const bits = v4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  // An IPv4 range written as IPv6 (::ffff:203.0.113.0/120) is that IPv4 range; a wider one stays IPv6.
  if (v6 && isMapped(v6) && prefix >= 96) return masked({ family: 4, bytes: v6.slice(12), prefix: prefix - 96 });
  return masked({ family: v4 ? 4 : 6, bytes: v4 ?? v6!, prefix });
}

function masked(range: Range): Range {
  const bytes = range.bytes.map((byte, index) => {
    const kept = Math.min(8, Math.max(0, range.prefix - index * 8));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
  return { ...range, bytes };
}

function formatAddress({ family, bytes }: Address): string {
  if (family === 4) return bytes.join('.');
  const words = Array.from({ length: 8 }, (_, index) => (bytes[index * 2]! << 8) | bytes[index * 2 + 1]!);
  // The longest run of two or more zero groups (the first of equals) becomes `::`.
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8;) {
    let end = start;
    while (end < 8 && words[end] === 0) end++;
    if (end - start > best.length) best = { start, length: end - start };
    start = end === start ? start + 1 : end;
  }
  const hex = words.map((word) => word.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** The range in its canonical form (`203.0.113.7` → `203.0.113.7/32`, `2001:DB8:0:0::1/48` → `2001:db8::/48`), or null. */
export function normalizeIpRange(text: string): string | null {
  const range = parseRange(text);
  return range ? `${formatAddress(range)}/${range.prefix}` : null;
}

/** Whether the address (IPv4, IPv6, or IPv4 written as IPv6) lies inside the range; false for anything unreadable. */
export function addressInRange(address: string, range: string): boolean {
  const where = parseAddress(address.trim());
  const within = parseRange(range);
  if (!where || !within || where.family !== within.family) return false;
  return formatAddress(masked({ ...where, prefix: within.prefix })) === formatAddress(within);
}

/** The address as the canonical form writes it (`::ffff:203.0.113.7` → `203.0.113.7`), or null when it is none. */
export function normalizeIpAddress(text: string): string | null {
  const address = parseAddress(text.trim());
  return address ? formatAddress(address) : null;
}
