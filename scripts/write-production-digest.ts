/** Rewrites src/fixtures/reference/production-operations.ts from production's contract. */
import { writeFileSync } from 'node:fs';
import { DIGEST_FILE, digestSource } from './production-digest.js';

writeFileSync(DIGEST_FILE, await digestSource());
console.log(`updated ${DIGEST_FILE.pathname}`);
