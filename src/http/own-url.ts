/**
 * The URL a client on this machine reaches a server at that listens on `host` and `port`: an
 * address of every interface (0.0.0.0, ::) is reached at 127.0.0.1, and an IPv6 address is
 * written in brackets (http://[::1]:8080): bare, no client can use it.
 */
export function ownUrl(host: string, port: number): string {
  const reached = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${port}`;
}
