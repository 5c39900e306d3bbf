/** IPv4 CIDR arithmetic for the template: the VPC block and the subnets cut from it. */

export interface Ipv4Block {
  /** Network address as an unsigned 32-bit number. */
  network: number;
  prefix: number;
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Parses 'a.b.c.d/n'; null when malformed or when host bits are set (AWS refuses those for a VPC). */
export function parseCidr(cidr: string): Ipv4Block | null {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr.trim());
  if (!match) return null;
  const octets = match.slice(1, 5);
  if (!octets.every((o) => OCTET.test(o))) return null;
  const prefix = Number(match[5]);
  if (prefix < 0 || prefix > 32) return null;
  const address = octets.reduce((acc, o) => acc * 256 + Number(o), 0);
  if (address % 2 ** (32 - prefix) !== 0) return null;
  return { network: address, prefix };
}

export function formatCidr(block: Ipv4Block): string {
  const n = block.network;
  return `${Math.floor(n / 2 ** 24) % 256}.${Math.floor(n / 2 ** 16) % 256}.${Math.floor(n / 2 ** 8) % 256}.${n % 256}/${block.prefix}`;
}

/** The `index`-th block of `newPrefix` inside `block` (like Fn::Cidr, but computed so tests can check it). */
export function subnetOf(block: Ipv4Block, newPrefix: number, index: number): Ipv4Block {
  if (newPrefix < block.prefix || newPrefix > 32) throw new RangeError(`Cannot cut a /${newPrefix} from a /${block.prefix}`);
  const count = 2 ** (newPrefix - block.prefix);
  if (index < 0 || index >= count) throw new RangeError(`A /${block.prefix} holds only ${count} blocks of /${newPrefix}`);
  return { network: block.network + index * 2 ** (32 - newPrefix), prefix: newPrefix };
}

/** True when `inner` lies entirely inside `outer`. */
export function cidrContains(outer: Ipv4Block, inner: Ipv4Block): boolean {
  if (inner.prefix < outer.prefix) return false;
  const size = 2 ** (32 - outer.prefix);
  return inner.network >= outer.network && inner.network + 2 ** (32 - inner.prefix) <= outer.network + size;
}

export function cidrsOverlap(a: Ipv4Block, b: Ipv4Block): boolean {
  return cidrContains(a, b) || cidrContains(b, a);
}
