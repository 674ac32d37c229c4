import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** YooKassa's published notification addresses (yookassa.ru/developers/using-api/webhooks). */
export const yookassaNotificationRanges =
  '185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11/32,77.75.156.35/32,77.75.154.128/25,2a02:5180::/32';

/**
 * A list of CIDR ranges (IPv4 and IPv6) and the question whether an address is in one of them, through
 * Node's own BlockList rather than hand-written bit arithmetic. An IPv4 address seen as IPv4-mapped IPv6
 * (`::ffff:185.71.76.1`, as a dual-stack socket reports it) counts as the IPv4 address.
 */
export class AddressRanges {
  private readonly list = new BlockList();

  constructor(cidrs: string) {
    for (const entry of cidrs
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean)) {
      const [address = '', prefixText] = entry.split('/');
      const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
      if (!type) throw new Error(`not an address range: ${entry}`);
      const prefix = prefixText === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === 'ipv4' ? 32 : 128))
        throw new Error(`bad prefix in ${entry}`);
      this.list.addSubnet(address, prefix, type);
    }
  }

  contains(address: string): boolean {
    const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    if (isIPv4(plain)) return this.list.check(plain, 'ipv4');
    if (isIPv6(plain)) return this.list.check(plain, 'ipv6');
    return false;
  }
}
