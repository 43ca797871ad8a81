/** Regenerates the committed openapi/openapi.json from the endpoint declarations. */
import { writeFileSync } from 'node:fs';
import { allEndpoints } from '../src/app.js';
import { buildOpenApi } from '../src/openapi/build.js';
import { COMMITTED_SERVER_URL } from '../src/openapi/committed.js';

const file = new URL('../openapi/openapi.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(buildOpenApi(allEndpoints(), COMMITTED_SERVER_URL), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
