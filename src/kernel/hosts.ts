// Which Host names the mock answers to. A web page can make a browser send requests to
// 127.0.0.1:4010 under a name of its own (DNS rebinding: evil.example first resolves to the
// attacker, then to 127.0.0.1), and those requests carry that name in Host. Answering only the
// loopback names and those the user allowed keeps such pages away from the tokenless control API,
// and keeps links in answers from naming a host the request made up.

/** Every name under .localhost is loopback (RFC 6761); so is 127.0.0.0/8 and ::1. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]' || host === '::1'
}

/** A Host header (or a URL's authority) without its port, lower case, without a trailing dot: "localhost", "[::1]". */
export function hostName(authority: string): string {
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:\d*$/, '')
  return host.toLowerCase().replace(/\.$/, '')
}

/** The authority ("host:port") of an absolute URL as the server built it ("http://host:port/path"), without parsing the whole URL. */
export function authorityOfUrl(url: string): string {
  const start = url.indexOf('//') + 2
  const end = url.indexOf('/', start)
  return url.slice(start, end === -1 ? undefined : end)
}

/** The addresses that mean "every interface" when bound to. */
export const isWildcardAddress = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '[::]'

/**
 * The names the mock answers to: the loopback ones always, plus `allowed` (host names or IP
 * addresses; `*` allows any Host). An address it was bound to belongs in `allowed` too.
 */
export class HostAllowList {
  private readonly names: ReadonlySet<string>
  readonly any: boolean

  constructor(allowed: readonly string[] = []) {
    this.any = allowed.includes('*')
    this.names = new Set(allowed.filter((name) => name !== '*' && !isWildcardAddress(name)).map((name) => hostName(name.includes(':') && !name.startsWith('[') ? `[${name}]` : name)))
  }

  allows(host: string): boolean {
    return this.any || isLoopbackHost(host) || this.names.has(host)
  }

  /** The names besides the loopback ones (for the refusal's advice and the webhook check). */
  get extra(): readonly string[] {
    return [...this.names]
  }
}
