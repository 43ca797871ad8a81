import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may go. Only `http` and `https`; by default public addresses and loopback (a
 * developer's own machine is the common receiver), never private, link-local (cloud metadata at
 * 169.254.169.254 among them) or reserved ones. Shared mode refuses loopback too. A host named
 * exactly in `HOOK_ALLOWED_HOSTS` is the operator's choice and may be any address (a receiver in
 * the same Docker network has a private one). Names are checked on the addresses they resolve
 * to, when the webhook is sent, on the very address the connection then uses.
 */

/** What kind of address an IP is. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const subnet of v4) {
    const [network, prefix] = subnet.split('/');
    list.addSubnet(network!, Number(prefix), 'ipv4');
  }
  for (const subnet of v6) {
    const [network, prefix] = subnet.split('/');
    list.addSubnet(network!, Number(prefix), 'ipv6');
  }
  return list;
}

// Node's BlockList matches an IPv4-mapped IPv6 address (::ffff:10.0.0.1) against IPv4 subnets.
const kinds: [AddressKind, BlockList][] = [
  ['loopback', blockList(['127.0.0.0/8'], ['::1/128'])],
  ['link-local', blockList(['169.254.0.0/16'], ['fe80::/10'])],
  // RFC 1918, carrier-grade NAT (also Alibaba's metadata at 100.100.100.200), unique local IPv6 (also AWS's fd00:ec2::254).
  ['private', blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7'])],
  [
    'reserved',
    blockList(
      ['0.0.0.0/8', '192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'],
      // Unspecified, multicast, documentation, discard, and the forms that embed an IPv4 address of any
      // kind: IPv4-compatible (::169.254.169.254 is ::a9fe:a9fe; Node's BlockList matches only the
      // ::ffff: mapped form against IPv4 subnets), IPv4-translated, NAT64 (well-known and local-use),
      // Teredo and 6to4.
      ['::/96', '::ffff:0:0:0/96', 'ff00::/8', '2001:db8::/32', '100::/64', '64:ff9b::/96', '64:ff9b:1::/48', '2001::/32', '2002::/16'],
    ),
  ],
];

/** The kind of an IP address (an IPv6 one with or without brackets). */
export function addressKind(address: string): AddressKind {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of kinds) if (list.check(bare, type)) return kind;
  return 'public';
}

/** One `HOOK_ALLOWED_HOSTS` entry. */
interface HostRule {
  host: string;
  wildcard: boolean;
  port: number | undefined;
}

/** The parsed `HOOK_ALLOWED_HOSTS`: `undefined` (or `*`) allows any host. */
export function hostRules(allowed: string | undefined): HostRule[] | undefined {
  const entries = (allowed ?? '*')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.includes('*')) return undefined;
  return entries.map((entry) => {
    const match = /^(.*?)(?::(\d+))?$/.exec(entry)!;
    const host = match[1]!;
    return { host: host.startsWith('*.') ? host.slice(1) : host, wildcard: host.startsWith('*.'), port: match[2] === undefined ? undefined : Number(match[2]) };
  });
}

/** What a webhook may be sent to, from the config. */
export interface TargetPolicy {
  rules: HostRule[] | undefined;
  allowLoopback: boolean;
}

export function targetPolicy(config: { hookAllowedHosts: string | undefined; shared: boolean }): TargetPolicy {
  return { rules: hostRules(config.hookAllowedHosts), allowLoopback: !config.shared };
}

/** Why `kind` may not be sent to, or `undefined`. A host the operator named exactly may be anything. */
function kindRefusal(kind: AddressKind, policy: TargetPolicy, named: boolean): string | undefined {
  if (kind === 'public' || named) return undefined;
  if (kind === 'loopback') return policy.allowLoopback ? undefined : 'a loopback address, which this shared sandbox does not send to';
  return `a ${kind} address`;
}

export interface Target {
  url: URL;
  /** The host name without the brackets of an IPv6 address. */
  host: string;
  port: number;
  /** Named exactly (not by a wildcard) in HOOK_ALLOWED_HOSTS. */
  named: boolean;
}

/**
 * Checks a webhook URL without resolving it: scheme, HOOK_ALLOWED_HOSTS (and its ports), and the
 * address when the host is an IP. Returns the target, or why it is refused (a sentence that
 * names the URL's host, never anything the sandbox looked up).
 */
export function checkTarget(raw: string, policy: TargetPolicy): { target: Target } | { refusal: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: 'Webhooks need an absolute http or https URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refusal: `Webhooks are sent over http or https only, not ${url.protocol.slice(0, -1)}.` };
  const host = url.hostname.toLowerCase();
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  let named = false;
  if (policy.rules) {
    const hostMatches = policy.rules.filter((rule) =>
      rule.wildcard ? host.endsWith(rule.host) : host === rule.host || bare === rule.host.replace(/^\[|\]$/g, ''),
    );
    if (hostMatches.length === 0) return { refusal: `Webhooks to ${url.hostname} are not allowed here (HOOK_ALLOWED_HOSTS).` };
    const portMatches = hostMatches.filter((rule) => rule.port === undefined || rule.port === port);
    if (portMatches.length === 0) {
      const ports = [...new Set(hostMatches.map((rule) => rule.port))].join(', ');
      return { refusal: `Webhooks to ${url.hostname} are allowed on port ${ports} only, not ${port} (HOOK_ALLOWED_HOSTS).` };
    }
    named = portMatches.some((rule) => !rule.wildcard);
  }
  if (isIP(bare) !== 0) {
    const why = kindRefusal(addressKind(bare), policy, named);
    if (why)
      return {
        refusal: `Webhooks to ${url.hostname} are refused: it is ${why}. Send them to a public address${policy.allowLoopback ? ' or to this machine' : ''}.`,
      };
  }
  return { target: { url, host: bare, port, named } };
}

/** Raised (as a connection error) when a name resolves to an address webhooks may not go to. */
export class RefusedAddress extends Error {
  readonly code = 'EREFUSEDTARGET';
}

type LookupFn = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for `http.request` that resolves the name, refuses it when any of its addresses may
 * not be sent to, and otherwise hands the connection exactly the addresses it checked (so a name
 * cannot resolve to something else between the check and the connection).
 */
export function guardedLookup(target: Target, policy: TargetPolicy, resolve: LookupFn = dnsLookup as unknown as LookupFn) {
  return (hostname: string, options: LookupOptions, callback: (...args: any[]) => void): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      for (const { address } of addresses) {
        const why = kindRefusal(addressKind(address), policy, target.named);
        if (why) return callback(new RefusedAddress(`${target.url.hostname} resolves to ${why}`));
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
      callback(null, first.address, first.family);
    });
  };
}
