// @ts-check
/**
 * The browser side of the `/docs` page, served as `/docs/assets/docs.js` (a file, not an inline
 * script, so the page's Content-Security-Policy can be `script-src 'self'`). Plain JavaScript
 * served as it is written, with no build step between this file and the browser: the page works
 * however the server runs (from the sources, the compiled library, the bundle or the image).
 * ESLint lints it with the browser's globals and TypeScript checks it against the DOM's types
 * (tsconfig.json beside it; Swagger UI's global is declared in swagger-ui.d.ts).
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

/**
 * The page's settings, in its `docs-config` element (src/docs/docs-page.ts writes them).
 * @typedef {{ specUrl: string, examplesUrl: string, scopes: string[], clientId: string, clientSecret: string, visitorUrl?: string }} DocsConfig
 */
/**
 * A visitor's tenant as POST `_sandbox/visitor` answers it, with the time it ends (`deadline`, ms).
 * @typedef {{ access_token: string, token_type: string, expires_in: number, ttl: number, client_id: string, client_secret: string,
 *   organization_id: string, shop_id: string, deadline: number, examples?: Record<string, string> }} Visitor
 */

'use strict';
(function () {
  // The page always renders these elements (src/docs/docs-page.ts).
  /** @type {DocsConfig} */
  var config = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('docs-config')).textContent || '');
  var form = /** @type {HTMLFormElement} */ (document.getElementById('sandbox-token'));
  var clientIdInput = /** @type {HTMLInputElement} */ (form.elements.namedItem('client_id'));
  var clientSecretInput = /** @type {HTMLInputElement} */ (form.elements.namedItem('client_secret'));
  var status = /** @type {HTMLOutputElement} */ (document.getElementById('sandbox-token-status'));

  var VISITOR_KEY = 'parcel-sandbox.visitor';
  var renewing = false;

  var ui;
  /** Bearer tokens (with the visitor client they made rows for) whose tenant has its example rows (POST _sandbox/examples answered). */
  var prepared = {};
  var controlUrl = function (path) {
    return new URL(path, window.location.href).href;
  };

  // The document is fetched and parsed here (JSON.parse), not by Swagger UI, which reads it as
  // YAML: on a document this size that alone took seconds. With a tenant per visitor the visitor
  // tenant is asked for at the same time, and its example values take the default tenant's place.
  var documentLoaded = fetch(controlUrl(config.specUrl), { headers: { Accept: 'application/json' } }).then(function (response) {
    return response.json();
  });
  var visitorLoaded = config.visitorUrl ? useVisitor(false) : Promise.resolve(undefined);
  Promise.all([documentLoaded, visitorLoaded]).then(function (loaded) {
    var spec = loaded[0];
    if (loaded[1] && loaded[1].examples) replaceExamples(spec, loaded[1].examples);
    start(asOpenApi30(spec));
  });

  /**
   * The document as OpenAPI 3.0 for Swagger UI to render: for 3.1 it resolves references through
   * ApiDOM, which refracts the whole document for each resolution (seconds each on this one);
   * for 3.0 it uses its own resolver. The schemas use little of JSON Schema 2020-12, each with a
   * 3.0 form: const is a one-value enum, a type list with null is nullable, a numeric
   * exclusiveMinimum is a minimum with exclusiveMinimum true, propertyNames has none (dropped).
   * /openapi.json itself stays 3.1.
   */
  function asOpenApi30(spec) {
    var convert = function (node) {
      if (Array.isArray(node)) return node.map(convert);
      if (!node || typeof node !== 'object') return node;
      var out = {};
      for (var key in node) {
        var value = node[key];
        if (key === 'const') out.enum = [value];
        else if (key === 'propertyNames' || key === 'contentEncoding') continue;
        else if (key === 'exclusiveMinimum' && typeof value === 'number') {
          out.minimum = value;
          out.exclusiveMinimum = true;
        } else if (key === 'exclusiveMaximum' && typeof value === 'number') {
          out.maximum = value;
          out.exclusiveMaximum = true;
        } else if (key === 'type' && Array.isArray(value)) {
          var types = value.filter(function (type) {
            return type !== 'null';
          });
          if (types.length === 1) out.type = types[0];
          if (types.length < value.length) out.nullable = true;
        } else if (key === 'example' || key === 'examples') out[key] = value;
        else out[key] = convert(value);
      }
      return out;
    };
    var converted = convert(spec);
    converted.openapi = '3.0.3';
    return sharedResponses(converted);
  }

  /**
   * Answers that many operations document alike (the 401, 406, 429, 503 ...: half of the
   * document's bytes) become one entry of components.responses each, referenced: Swagger UI
   * turns the whole document into immutable maps before it shows anything, and resolves an
   * operation's references only when it is opened.
   */
  function sharedResponses(spec) {
    var seen = {};
    var each = function (visit) {
      for (var path in spec.paths) {
        for (var method in spec.paths[path]) {
          var responses = spec.paths[path][method].responses || {};
          for (var status in responses) visit(responses, status);
        }
      }
    };
    each(function (responses, status) {
      var key = status + JSON.stringify(responses[status]);
      seen[key] = seen[key] || { status: status, count: 0 };
      seen[key].count += 1;
    });
    spec.components = spec.components || {};
    spec.components.responses = spec.components.responses || {};
    var names = {};
    var taken = {};
    for (var key in seen) {
      if (seen[key].count < 2) continue;
      var status = seen[key].status;
      taken[status] = (taken[status] || 0) + 1;
      names[key] = 'Status' + status + (taken[status] > 1 ? '-' + taken[status] : '');
    }
    each(function (responses, status) {
      var key = status + JSON.stringify(responses[status]);
      if (!names[key]) return;
      spec.components.responses[names[key]] = responses[status];
      responses[status] = { $ref: '#/components/responses/' + names[key] };
    });
    return spec;
  }

  /** Replaces example values of the default tenant by the visitor's, only inside examples. */
  function replaceExamples(spec, replacements) {
    var swap = function (value) {
      if (typeof value === 'string') return Object.prototype.hasOwnProperty.call(replacements, value) ? replacements[value] : value;
      if (Array.isArray(value)) return value.map(swap);
      if (value && typeof value === 'object') {
        var out = {};
        for (var key in value) out[key] = swap(value[key]);
        return out;
      }
      return value;
    };
    for (var path in spec.paths) {
      for (var method in spec.paths[path]) {
        var operation = spec.paths[path][method];
        (operation.parameters || []).forEach(function (parameter) {
          if ('example' in parameter) parameter.example = swap(parameter.example);
        });
        var content = (operation.requestBody && operation.requestBody.content) || {};
        for (var type in content) if ('example' in content[type]) content[type].example = swap(content[type].example);
      }
    }
  }

  /**
   * Swagger UI's own fallback operation ids (post_shipments) as deep links: the address opens
   * the operation under its real id (createShipment).
   */
  function followFallbackLink(spec) {
    var match = /^#\/([^/]+)\/([^/]+)$/.exec(window.location.hash);
    if (!match) return;
    // A link may carry any text after the #: a malformed escape (%E0) made decodeURIComponent
    // throw here, before Swagger UI started, and the page stayed empty. Such an id names no operation.
    var wanted;
    try {
      wanted = decodeURIComponent(match[2]);
    } catch {
      return;
    }
    for (var path in spec.paths) {
      for (var method in spec.paths[path]) {
        var fallback = method + path.replace(/[\s!@#$%^&*()_+=[{\]};:<>|./?,\\'""-]/g, '_');
        var operation = spec.paths[path][method];
        if (fallback === wanted && operation.operationId) {
          history.replaceState(null, '', '#/' + match[1] + '/' + operation.operationId);
          return;
        }
      }
    }
  }

  /** Makes the example rows of the token's tenant before its first request (once per token). */
  async function prepareExamples(request) {
    var auth = request.headers && (request.headers.Authorization || request.headers.authorization);
    if (!auth || /\/(access-token|_sandbox\/examples)$/.test(new URL(request.url).pathname)) return request;
    // On a visitor's page the examples show the visitor's rows: another token (the admin's) makes
    // them in the visitor's tenant, naming its client, the admin's own rows among them. So a token
    // is prepared per visitor tenant: a renewed visitor needs the admin's rows made again.
    var visitorClient = config.visitorUrl && currentVisitor && auth !== 'Bearer ' + currentVisitor.access_token ? currentVisitor.client_id : undefined;
    var key = visitorClient ? auth + ' for ' + visitorClient : auth;
    if (prepared[key]) return request;
    prepared[key] = true;
    try {
      await fetch(controlUrl(config.examplesUrl), {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: visitorClient ? JSON.stringify({ client_id: visitorClient }) : '{}',
      });
    } catch {
      prepared[key] = false;
    }
    return request;
  }

  function start(spec) {
    followFallbackLink(spec);
    ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      // The schemas are in each operation's "Schema" tab; listing all of them at the end costs a
      // resolution of the whole document before the page answers.
      defaultModelsExpandDepth: -1,
      // Swagger UI otherwise sends the document to an online validator and shows its badge.
      validatorUrl: null,
      tryItOutEnabled: true,
      docExpansion: 'none',
      displayRequestDuration: true,
      filter: true,
      persistAuthorization: false,
      presets: [SwaggerUIBundle.presets.apis],
      plugins: [jsonDocument],
      layout: 'BaseLayout',
      onComplete: function () {
        document.body.setAttribute('data-docs-ready', 'true');
      },
      requestInterceptor: prepareExamples,
      responseInterceptor: function (response) {
        // A reset removed the example rows: the next Execute makes them again.
        if (response.ok && /\/_sandbox\/reset$/.test(new URL(response.url, window.location.href).pathname)) prepared = {};
        if (config.visitorUrl && response.status === 401 && !renewing && visitorGone(response)) {
          renewing = true;
          useVisitor(true, 'Your visitor tenant had expired; a new one is ready: Execute again. ').then(function () {
            renewing = false;
          });
        }
        return response;
      },
    });
    // Every scope ticked: the Authorize dialog asks for a token that can run every example.
    ui.initOAuth({ clientId: config.clientId, clientSecret: config.clientSecret, appName: 'parcel-sandbox', scopes: config.scopes });
    window.ui = ui;
    if (config.visitorUrl && currentVisitor) authorizeVisitor(currentVisitor);
  }

  /**
   * Swagger UI parses a document given as an object again as YAML text: JSON.parse does it in a
   * fraction. And when both the client's token and the admin token are authorized, an Execute
   * sends one of them: the admin token where the example says it is meant for it (x-example-token),
   * the client's token everywhere else (Swagger UI would send whichever the operation lists last).
   */
  function jsonDocument() {
    return {
      statePlugins: {
        // The tags start closed (docExpansion none: rendering all 190 operations' rows was half of
        // the time to interactive); a filter opens the tags it finds something in.
        layout: {
          wrapActions: {
            updateFilter: function (original, system) {
              return function (phrase) {
                var result = original(phrase);
                if (phrase) {
                  system.fn.opsFilter(system.specSelectors.taggedOperations(), phrase).forEach(function (found, tag) {
                    system.layoutActions.show(['operations-tag', tag], true);
                  });
                }
                return result;
              };
            },
          },
        },
        spec: {
          // Every Execute turns the resolved document into plain objects (toJS) to find the
          // operation in: 55 ms a click on this 1 MB document (2-core machine at load 11), the
          // same objects each time until the document changes. Kept per document: a click pays it once.
          wrapSelectors: {
            specJsonWithResolvedSubtrees: function (original) {
              return function () {
                var value = original.apply(null, arguments);
                if (value && typeof value.toJS === 'function' && !Object.prototype.hasOwnProperty.call(value, 'toJS')) {
                  var plain;
                  var toJS = value.toJS;
                  Object.defineProperty(value, 'toJS', {
                    value: function () {
                      if (plain === undefined) plain = toJS.call(value);
                      return plain;
                    },
                  });
                }
                return value;
              };
            },
          },
          wrapActions: {
            executeRequest: function (original) {
              return function (request) {
                var securities = request.securities;
                var authorized = securities && securities.authorized;
                if (!authorized || !authorized.SandboxAdmin || Object.keys(authorized).length < 2) return original(request);
                var admin = request.operation && request.operation.get && request.operation.get('x-example-token') === 'SandboxAdmin';
                var chosen = {};
                for (var name in authorized) if ((name === 'SandboxAdmin') === admin) chosen[name] = authorized[name];
                return original(Object.assign({}, request, { securities: Object.assign({}, securities, { authorized: chosen }) }));
              };
            },
            parseToJson: function (original, system) {
              return function (text) {
                try {
                  return system.specActions.updateJsonSpec(JSON.parse(text || system.specSelectors.specStr()));
                } catch {
                  return original(text);
                }
              };
            },
          },
        },
      },
    };
  }

  /**
   * Shows `text` in the bar's status line.
   * @param {string} text
   * @param {'ok' | 'busy' | 'error'} kind
   */
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

  /**
   * The scope claim of a JWT, for the status line; empty when it cannot be read.
   * @param {string} jwt
   */
  function scopesOf(jwt) {
    try {
      var part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return String(JSON.parse(atob(part + '==='.slice((part.length + 3) % 4))).scope || '');
    } catch {
      return '';
    }
  }

  async function getToken() {
    var scheme = oauthScheme();
    if (!scheme) {
      say('The API description has not loaded yet; try again in a moment.', 'error');
      return;
    }
    var clientId = clientIdInput.value.trim();
    var clientSecret = clientSecretInput.value;
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
      say('The token request failed: ' + /** @type {Error} */ (error).message, 'error');
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
      } catch {
        body = undefined;
      }
    }
    var error = body && body.errors && body.errors[0];
    return Boolean(error && error.code === '14002' && /no longer exists|tenant of this access token expired/.test(error.detail || ''));
  }

  /**
   * The visitor tenant this tab was given, while it has more than a few seconds left.
   * @returns {Visitor | undefined}
   */
  function storedVisitor() {
    try {
      var visitor = JSON.parse(window.sessionStorage.getItem(VISITOR_KEY) || 'null');
      return visitor && visitor.deadline > Date.now() + 5000 ? visitor : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A new tenant of the visitor's own, kept for the tab (called only with a tenant per visitor).
   * @returns {Promise<Visitor>}
   */
  async function newVisitor() {
    var response = await fetch(new URL(/** @type {string} */ (config.visitorUrl), window.location.href).href, {
      method: 'POST',
      headers: { Accept: 'application/json' },
    });
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
    } catch {
      // Storage may be off (private windows); the tenant then lasts as long as the page.
    }
    return body;
  }

  /** @type {Visitor | undefined} */
  var currentVisitor;

  /**
   * Authorizes try-it-out with the visitor's token (once Swagger UI runs).
   * @param {Visitor} visitor
   */
  function authorizeVisitor(visitor) {
    var scheme = oauthScheme();
    if (!scheme) return;
    ui.authActions.authorizeOauth2WithPersistOption({
      auth: { name: scheme.name, schema: scheme.schema, clientId: visitor.client_id, scopes: [] },
      token: { access_token: visitor.access_token, token_type: visitor.token_type, expires_in: visitor.expires_in },
    });
    ui.initOAuth({ clientId: visitor.client_id, clientSecret: visitor.client_secret, appName: 'parcel-sandbox', scopes: config.scopes });
  }

  /**
   * Gives "try it out" the visitor's own tenant: the stored one, or a new one when fresh.
   * @param {boolean} fresh
   * @param {string} [prefix] what the status line says first
   * @returns {Promise<Visitor | undefined>}
   */
  async function useVisitor(fresh, prefix) {
    var visitor;
    say('Creating a sandbox tenant of your own ...', 'busy');
    try {
      visitor = (!fresh && storedVisitor()) || (await newVisitor());
    } catch (error) {
      say('No tenant of your own: ' + /** @type {Error} */ (error).message, 'error');
      document.body.setAttribute('data-visitor', 'error');
      return undefined;
    }
    currentVisitor = visitor;
    if (ui) authorizeVisitor(visitor);
    clientIdInput.value = visitor.client_id;
    clientSecretInput.value = visitor.client_secret;
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
    return visitor;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    getToken();
  });
})();
