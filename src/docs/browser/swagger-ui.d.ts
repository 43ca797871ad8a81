// What the page's script uses of the browser globals that are not the DOM's: Swagger UI's bundle
// (swagger-ui-bundle.js, loaded before docs.js) and the handle docs.js leaves for debugging.
declare const SwaggerUIBundle: ((options: Record<string, unknown>) => any) & { presets: { apis: unknown } };

interface Window {
  /** The running Swagger UI (its selectors and actions), for a look from the browser's console. */
  ui: any;
}
