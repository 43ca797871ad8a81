import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';
import { hostRules } from '../domain/hooks/target-address.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Services } from './services.js';
import { presentsAdminToken } from './control-access.js';

/*
 * Which hosts the sandbox controls answer for. A DNS-rebinding page is served under the
 * attacker's own name, which then resolves to the sandbox (often 127.0.0.1): the browser sends
 * that name as Host and as Origin, so the Origin check sees a page of the sandbox's own. The
 * Host gives it away: it is none the sandbox knows. Known are loopback names (`localhost` and
 * `*.localhost`, which browsers resolve to loopback themselves), IP literals (a rebinding page
 * needs a name of its own to rebind, so an IP Host never comes from one), the public URL's host
 * and whatever ALLOWED_HOSTS adds.
 */

/** Whether a request URL names a host the controls answer for. */
type HostCheck = (url: URL) => boolean;

/** The hosts the controls answer for, from the config; `undefined` when ALLOWED_HOSTS is `*`. */
function controlHostCheck(config: Pick<Config, 'publicUrl' | 'allowedHosts'>): HostCheck | undefined {
  const rules = config.allowedHosts === undefined ? [] : hostRules(config.allowedHosts);
  if (rules === undefined) return undefined;
  const publicHost = config.publicUrl === undefined ? undefined : bareHost(new URL(config.publicUrl).hostname);
  return (url) => {
    const host = bareHost(url.hostname);
    if (host === 'localhost' || host.endsWith('.localhost') || host === publicHost) return true;
    if (isIP(host.startsWith('[') ? host.slice(1, -1) : host) !== 0) return true;
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return rules.some((rule) => (rule.wildcard ? host.endsWith(rule.host) : host === rule.host) && (rule.port === undefined || rule.port === port));
  };
}

/** A host name lower-cased and without the trailing dot of a fully qualified name. */
const bareHost = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');

/** The hosts the controls answer for, as the refusal names them. */
function knownHosts(config: Pick<Config, 'publicUrl' | 'allowedHosts'>): string {
  const known = ['localhost', '*.localhost', 'IP addresses'];
  if (config.publicUrl !== undefined) known.push(`${new URL(config.publicUrl).hostname} (PUBLIC_URL)`);
  if (config.allowedHosts !== undefined) known.push(`${config.allowedHosts} (ALLOWED_HOSTS)`);
  return known.join(', ');
}

/**
 * Refuses a `/_sandbox/` request that names an unknown host with 421 (Misdirected Request),
 * unless it carries the admin token, which no rebinding page can know. A tenant's access token
 * does not pass: a seeded client's secret is public, so any page can get one of its tokens.
 */
export function controlHosts(services: Services): MiddlewareHandler {
  const check = controlHostCheck(services.config);
  return async function controlHosts(c, next) {
    if (check === undefined || presentsAdminToken(services, c.req.header('authorization'))) return next();
    const url = new URL(c.req.url);
    if (check(url)) return next();
    throw ApiError.of(
      'actionNotAllowed',
      `The sandbox controls (/_sandbox/) do not answer for the host '${url.host}': they answer for ${knownHosts(services.config)}. ` +
        'Call them by one of those names, add this one with ALLOWED_HOSTS (--allowed-hosts), or send the admin token.',
      { status: 421, source: { header: 'Host' } },
    );
  };
}
