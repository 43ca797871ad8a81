/**
 * The browser side of the `/docs` page, served as `/docs/assets/docs.js` (a file, not an inline
 * script, so the page's Content-Security-Policy can be `script-src 'self'`). Plain JavaScript that
 * runs as is in any current browser: it is a string, not compiled TypeScript, because the page
 * must not depend on how the server was built.
 *
 * It starts Swagger UI on the sandbox's own `/openapi.json`, prefills the Authorize dialog with
 * the default client, and wires the "Get sandbox token" bar: POST the token URL of the
 * document's OAuth2 scheme, then hand the token to Swagger UI as if the Authorize dialog had
 * fetched it, so every "Execute" sends `Authorization: Bearer <token>`.
 *
 * With a tenant per visitor (`visitorUrl` in the page's config) it first asks that URL for a
 * short-lived tenant of the visitor's own (kept in sessionStorage, so a reload or another page
 * of the tab keeps it until it expires), authorizes Swagger UI with its token and fills the bar
 * and the Authorize dialog with its client. When the sandbox says the tenant is gone (401), it
 * asks for a new one.
 */
export const docsScript = String.raw`'use strict';
(function () {
  var config = JSON.parse(document.getElementById('docs-config').textContent);
  var form = document.getElementById('sandbox-token');
  var status = document.getElementById('sandbox-token-status');

  var VISITOR_KEY = 'parcel-sandbox.visitor';
  var renewing = false;

  var ui = SwaggerUIBundle({
    url: new URL(config.specUrl, window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // Swagger UI otherwise sends the document to an online validator and shows its badge.
    validatorUrl: null,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    filter: true,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: function () {
      document.body.setAttribute('data-docs-ready', 'true');
      if (config.visitorUrl) useVisitor(false);
    },
    responseInterceptor: function (response) {
      if (config.visitorUrl && response.status === 401 && !renewing && visitorGone(response)) {
        renewing = true;
        useVisitor(true, 'Your visitor tenant had expired; a new one is ready: Execute again. ').then(function () {
          renewing = false;
        });
      }
      return response;
    },
  });
  ui.initOAuth({ clientId: config.clientId, clientSecret: config.clientSecret, appName: 'parcel-sandbox' });
  window.ui = ui;

  function say(text, kind) {
    status.textContent = text;
    status.setAttribute('data-state', kind);
  }

  /** The OAuth2 client-credentials scheme of the loaded document: its name and definition. */
  function oauthScheme() {
    var spec = ui.specSelectors.specJson().toJS();
    var schemes = (spec.components && spec.components.securitySchemes) || {};
    for (var name in schemes) {
      var scheme = schemes[name];
      if (scheme.type === 'oauth2' && scheme.flows && scheme.flows.clientCredentials) return { name: name, schema: scheme };
    }
    return undefined;
  }

  /** The scope claim of a JWT, for the status line; empty when it cannot be read. */
  function scopesOf(jwt) {
    try {
      var part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return String(JSON.parse(atob(part + '==='.slice((part.length + 3) % 4))).scope || '');
    } catch (error) {
      return '';
    }
  }

  async function getToken() {
    var scheme = oauthScheme();
    if (!scheme) {
      say('The API description has not loaded yet; try again in a moment.', 'error');
      return;
    }
    var clientId = form.elements.client_id.value.trim();
    var clientSecret = form.elements.client_secret.value;
    var tokenUrl = scheme.schema.flows.clientCredentials.tokenUrl;
    say('Requesting a token from ' + tokenUrl + ' ...', 'busy');
    var response;
    var body;
    try {
      response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: '*' }),
      });
      body = await response.json();
    } catch (error) {
      say('The token request failed: ' + error.message, 'error');
      return;
    }
    if (!response.ok || !body.access_token) {
      var detail = body && body.errors && body.errors[0] ? body.errors[0].detail || body.errors[0].title : 'HTTP ' + response.status;
      say('No token: ' + detail, 'error');
      return;
    }
    var scopes = scopesOf(body.access_token);
    // The token holds every scope of the client (scope *): the operations' own scopes are checked by the sandbox.
    ui.authActions.authorizeOauth2WithPersistOption({
      auth: { name: scheme.name, schema: scheme.schema, clientId: clientId, scopes: scopes ? scopes.split(' ') : [] },
      token: body,
    });
    say(
      'Bearer token set for ' + clientId + (scopes ? ' (' + scopes + ')' : '') + ', valid for ' + body.expires_in + ' s. Every Execute below sends it.',
      'ok',
    );
  }

  /** Whether a 401 says the token's tenant is gone (expired, or made way for newer visitors). */
  function visitorGone(response) {
    var body = response.body || response.obj;
    if (!body && typeof response.text === 'string') {
      try {
        body = JSON.parse(response.text);
      } catch (error) {
        body = undefined;
      }
    }
    var error = body && body.errors && body.errors[0];
    return Boolean(error && error.code === '14002' && /no longer exists|tenant of this access token expired/.test(error.detail || ''));
  }

  /** The visitor tenant this tab was given, while it has more than a few seconds left. */
  function storedVisitor() {
    try {
      var visitor = JSON.parse(window.sessionStorage.getItem(VISITOR_KEY) || 'null');
      return visitor && visitor.deadline > Date.now() + 5000 ? visitor : undefined;
    } catch (error) {
      return undefined;
    }
  }

  async function newVisitor() {
    var response = await fetch(new URL(config.visitorUrl, window.location.href).href, { method: 'POST', headers: { Accept: 'application/json' } });
    var body = await response.json().catch(function () {
      return undefined;
    });
    if (!response.ok || !body || !body.access_token) {
      var error = body && body.errors && body.errors[0];
      throw new Error(error ? error.detail || error.title : 'HTTP ' + response.status);
    }
    body.deadline = Date.now() + Math.min(body.ttl, body.expires_in) * 1000;
    try {
      window.sessionStorage.setItem(VISITOR_KEY, JSON.stringify(body));
    } catch (error) {
      // Storage may be off (private windows); the tenant then lasts as long as the page.
    }
    return body;
  }

  /** Gives "try it out" the visitor's own tenant: the stored one, or a new one when fresh. */
  async function useVisitor(fresh, prefix) {
    var scheme = oauthScheme();
    var visitor;
    say('Creating a sandbox tenant of your own ...', 'busy');
    try {
      visitor = (!fresh && storedVisitor()) || (await newVisitor());
    } catch (error) {
      say('No tenant of your own: ' + error.message, 'error');
      document.body.setAttribute('data-visitor', 'error');
      return;
    }
    ui.authActions.authorizeOauth2WithPersistOption({
      auth: { name: scheme.name, schema: scheme.schema, clientId: visitor.client_id, scopes: [] },
      token: { access_token: visitor.access_token, token_type: visitor.token_type, expires_in: visitor.expires_in },
    });
    ui.initOAuth({ clientId: visitor.client_id, clientSecret: visitor.client_secret, appName: 'parcel-sandbox' });
    form.elements.client_id.value = visitor.client_id;
    form.elements.client_secret.value = visitor.client_secret;
    var until = new Date(visitor.deadline).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    say(
      (prefix || '') +
        'You have a sandbox tenant of your own (organization ' +
        visitor.organization_id +
        ', shop ' +
        visitor.shop_id +
        ') until ' +
        until +
        ': every Execute below acts on it, never on data others see.',
      'ok',
    );
    document.body.setAttribute('data-visitor', visitor.organization_id);
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    getToken();
  });
})();
`;

/** Styles of the sandbox's bar above Swagger UI. */
export const docsStyle = `body { margin: 0; }
.sandbox-bar { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.5rem; padding: .75rem 1.25rem; background: #1b1b1b; color: #f5f5f5; font-family: system-ui, sans-serif; font-size: 14px; }
.sandbox-bar h1 { margin: 0; font-size: 18px; font-weight: 600; }
.sandbox-bar h1 small { font-weight: 400; opacity: .7; }
.sandbox-bar a { color: #8fd3ff; }
.sandbox-bar form { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
.sandbox-bar label { display: flex; align-items: center; gap: .35rem; }
.sandbox-bar input { font: inherit; padding: .25rem .4rem; border: 1px solid #666; border-radius: 3px; background: #2a2a2a; color: inherit; width: 10rem; }
.sandbox-bar button { font: inherit; font-weight: 600; padding: .3rem .8rem; border: 0; border-radius: 3px; background: #49cc90; color: #111; cursor: pointer; }
.sandbox-bar output { flex-basis: 100%; }
.sandbox-bar output:empty { display: none; }
.sandbox-bar output[data-state="ok"] { color: #7be0a8; }
.sandbox-bar output[data-state="error"] { color: #ff9a8a; }
.sandbox-bar .hint { opacity: .75; }
`;
