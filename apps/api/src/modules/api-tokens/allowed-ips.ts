import { BlockList, isIPv4 } from 'node:net';
import { ipRangeFamily } from '@kumo/contract';

/** An IPv4 address written as IPv6 (`::ffff:203.0.113.7`, how a dual-stack socket reports it) compared as IPv4. */
function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  return mapped && isIPv4(mapped) ? mapped : ip;
}

/** Whether `ip` is inside one of the ranges (validated by the contract); an empty list allows every address. */
export function isAddressAllowed(ranges: readonly string[], ip: string): boolean {
  if (ranges.length === 0) return true;
  const list = new BlockList();
  for (const range of ranges) {
    const family = ipRangeFamily(range);
    if (!family) continue;
    const [address, prefix] = range.split('/') as [string, string | undefined];
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  const address = plainAddress(ip);
  return list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}
