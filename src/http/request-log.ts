import type { MiddlewareHandler } from 'hono';
import type { Principal } from '../auth/principal.js';
import type { Logger } from '../services.js';

export type AppEnv = { Variables: { principal?: Principal } };

/**
 * Logs one line per request: method, path, status, duration and client. Headers and bodies are
 * never logged, so tokens and credentials cannot leak into the log.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const url = new URL(c.req.url);
    logger.info(
      {
        method: c.req.method,
        path: url.pathname,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        client: c.get('principal')?.clientId,
      },
      `${c.req.method} ${url.pathname} ${c.res.status}`,
    );
  };
}
