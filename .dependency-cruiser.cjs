/**
 * The layer rules of src/ (docs/architecture.md draws them): layers point down only, and no
 * module imports itself back through a circle. test/layers.test.ts runs this in `npm test`.
 *
 *   server, main, cli, index          (entry points)
 *   app, modules, services            (the app factory and the list of areas)
 *   resources, controls, docs         (the edge: endpoint declarations and resource kinds)
 *   http, auth, requestlog            (requests: routing, validation, tokens, the request log)
 *   jsonapi                           (documents, resource objects, errors)
 *   domain, fixtures                  (the rules; the seeded data)
 *   store                             (tables, transactions, persistence)
 *   model, clock, ids                 (schemas and record types; time; ids)
 *
 * The rules below enforce the lower layers (model to fixtures); the upper ones are drawn, not
 * yet checked.
 */
const below = (layer, allowed) => ({
  name: `${layer}-points-down`,
  comment: `${layer} may import only ${allowed.join(', ')}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: [`^src/${layer}/`, ...allowed.map((path) => `^src/${path}`)] },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    below('model', []),
    below('store', ['model/', 'clock\\.ts$', 'ids\\.ts$']),
    below('domain', ['model/', 'store/', 'clock\\.ts$', 'ids\\.ts$']),
    below('jsonapi', ['model/']),
    below('fixtures', ['model/', 'store/', 'ids\\.ts$', 'auth/secrets\\.ts$']),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a circle of types is still a circle a reader has to untangle.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
  },
};
