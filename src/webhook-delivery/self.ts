// Whether a webhook URL points at the mock itself. A delivery is a POST whose answer the delivery
// log shows, so a webhook aimed at the mock's own /_mock (or /api/v2) would let anyone who can
// create one drive the control API and read what it answers (a new team's tokens). Receivers on
// other ports of the same machine are the main use and stay allowed.
//
// Only names the mock answers to can reach it (kernel/hosts.ts: any other Host is a 421), so the
// mock's port on a loopback address, on the address it is bound to, on a name it was told to answer
// to, or (bound to every interface) on any of the machine's addresses is the mock.
import { networkInterfaces, hostname } from 'node:os'
import { hostName, isWildcardAddress, HostAllowList } from '../kernel/hosts.ts'

/** Where the mock listens: its port and the names beyond the loopback ones that reach it. */
export interface Listening {
  port: number
  hosts: HostAllowList
}

/** What a running mock listens on: bound to `host` at `port`, answering to `allowedHosts` too. */
export function listeningOn(port: number, host: string, allowedHosts: readonly string[]): Listening {
  // Bound to every interface, each of the machine's addresses (and its own name) reaches it.
  const everyInterface = isWildcardAddress(host)
    ? [hostname(), ...Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((address) => address.address))]
    : []
  return { port, hosts: new HostAllowList([host, ...allowedHosts, ...everyInterface].filter((name) => name !== '*')) }
}

/** The listening address of the API base a mock links to (tests: http://localhost/api/v2, port 80). */
export function listeningAt(apiBase: string): Listening {
  const url = new URL(apiBase)
  return listeningOn(Number(url.port || (url.protocol === 'https:' ? 443 : 80)), hostName(url.host), [])
}

/** IPv4-mapped IPv6 ([::ffff:7f00:1]) as the IPv4 address it stands for. */
function unmapped(host: string): string {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host)
  if (!mapped) return host
  const [high, low] = [Number.parseInt(mapped[1] as string, 16), Number.parseInt(mapped[2] as string, 16)]
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** Whether the URL reaches the mock itself. A URL that does not parse reaches nothing. */
export function pointsAtMock(url: string, mock: Listening): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80))
  if (port !== mock.port) return false
  // The URL parser has already turned 2130706433 and 0x7f.1 into 127.0.0.1.
  const host = unmapped(hostName(parsed.hostname))
  // Connecting to 0.0.0.0 (or ::) reaches this machine; allows() takes every loopback name.
  return isWildcardAddress(host) || mock.hosts.allows(host)
}
