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
 */
export const docsScript = String.raw`'use strict';
(function () {
  var config = JSON.parse(document.getElementById('docs-config').textContent);
  var form = document.getElementById('sandbox-token');
  var status = document.getElementById('sandbox-token-status');

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
    ui.authActions.authorizeOauth2WithPersistOption({
      auth: { name: scheme.name, schema: scheme.schema, clientId: clientId, scopes: [] },
      token: body,
    });
    var scopes = scopesOf(body.access_token);
    say(
      'Bearer token set for ' + clientId + (scopes ? ' (' + scopes + ')' : '') + ', valid for ' + body.expires_in + ' s. Every Execute below sends it.',
      'ok',
    );
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
