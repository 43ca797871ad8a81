import type { Config } from '../config.js';

/**
 * The one line a start that cannot listen ends on: what went wrong, named by the setting to
 * change (a newcomer's first `npm start` often meets a port 8080 something else holds), and what
 * to do about it, rather than Node's `listen EADDRINUSE` or `getaddrinfo ENOTFOUND`.
 */
export function listenProblem(error: NodeJS.ErrnoException, config: Config, port: number, which: 'port' | 'authPort'): string {
  const [env, flag] = which === 'port' ? ['PORT', '--port'] : ['AUTH_PORT', '--auth-port'];
  const address = `port ${port} on ${config.host}`;
  const hosts = 'use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or one of its own addresses';
  switch (error.code) {
    case 'EADDRINUSE':
      return `${address} is already in use: stop what listens there, or start with ${flag} <another port> (${env}); ${flag} 0 picks a free one`;
    case 'EACCES':
      return `${address} needs privileges this process does not have (ports below 1024 usually do): start with ${flag} <a port above 1023> (${env})`;
    case 'EADDRNOTAVAIL':
      return `HOST (--host) '${config.host}' is not an address of this machine: ${hosts}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST (--host) '${config.host}' is no name this machine can resolve: ${hosts}`;
    default:
      return error.message;
  }
}
