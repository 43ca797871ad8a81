/**
 * The layer rules of src/ (docs/architecture.md draws them): layers point down only, and no
 * module imports itself back through a circle. test/layers.test.ts runs this in `npm test`.
 *
 *   server, report, main, cli, index,   (entry points; the logger, its console lines and the key
 *     logger, console-lines, keys-file   file are theirs)
 *   app, modules                        (the app factory and the list of areas)
 *   resources, controls, docs, openapi  (the edge: endpoint declarations and resource kinds)
 *   http, auth, requestlog              (requests: routing, validation, tokens, the request log,
 *                                        the request context and the app's services)
 *   jsonapi                             (documents, resource objects, errors)
 *   domain, fixtures                    (the rules; the seeded data)
 *   store                               (tables, transactions, persistence)
 *   model, clock, ids, config, version  (schemas and record types; time; ids; settings)
 *
 * Every layer below the entry points is checked. Folders of one layer may import each other,
 * except that resources/ reach neither the sandbox controls nor the docs (an area of the API
 * does not depend on the sandbox's own endpoints), nor the app context that those get
 * (http/app-context.ts): a resource handler sees the narrow `Ctx`.
 */
const below = (layer, allowed) => ({
  name: `${layer}-points-down`,
  comment: `${layer} may import only ${allowed.join(', ')}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: [`^src/${layer}/`, ...allowed.map((path) => `^src/${path}`)] },
});

// Each layer's paths, top to bottom below the entry points; a layer may import its own and the ones below it.
const BOTTOM = ['model/', 'clock\\.ts$', 'ids\\.ts$', 'config\\.ts$', 'version\\.ts$'];
const STORE = ['store/'];
const DOMAIN = ['domain/', 'fixtures/'];
const JSONAPI = ['jsonapi/'];
const REQUESTS = ['http/', 'auth/', 'requestlog/'];
const EDGE = ['resources/', 'controls/', 'docs/', 'openapi/'];
const APP = ['(app|modules)\\.ts$'];

/** A rule that the files of `layer` (folders or files, as paths under src/) import only `allowed`. */
const layer = (name, paths, allowed) => ({
  name: `${name}-points-down`,
  comment: `${paths.join(', ')} may import only ${allowed.join(', ')}`,
  severity: 'error',
  from: { path: paths.map((path) => `^src/${path}`) },
  to: { path: '^src/', pathNot: allowed.map((path) => `^src/${path}`) },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    below('model', []),
    below('store', ['model/', 'clock\\.ts$', 'ids\\.ts$']),
    below('domain', ['model/', 'store/', 'clock\\.ts$', 'ids\\.ts$']),
    below('jsonapi', ['model/']),
    below('fixtures', ['model/', 'store/', 'ids\\.ts$', 'auth/secrets\\.ts$']),
    layer('bottom', ['clock\\.ts$', 'ids\\.ts$', 'config\\.ts$', 'version\\.ts$'], BOTTOM),
    layer('requests', REQUESTS, [...REQUESTS, ...JSONAPI, ...DOMAIN, ...STORE, ...BOTTOM]),
    layer('edge', EDGE, [...EDGE, ...REQUESTS, ...JSONAPI, ...DOMAIN, ...STORE, ...BOTTOM]),
    layer('app', APP, [...APP, ...EDGE, ...REQUESTS, ...JSONAPI, ...DOMAIN, ...STORE, ...BOTTOM]),
    {
      name: 'resources-see-the-narrow-context',
      comment: 'an area of the API uses no sandbox control, docs page or the app context those get',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: ['^src/controls/', '^src/docs/', '^src/openapi/', '^src/http/app-context\\.ts$'] },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a circle of types is still a circle a reader has to untangle.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
  },
};
