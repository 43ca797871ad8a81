/** Rewrites src/openapi/documented-answers.json: the answers the API reference shows as its response examples. */
import { writeFileSync } from 'node:fs';
import { ANSWERS_FILE, answersSource } from './documented-answers.js';

writeFileSync(ANSWERS_FILE, await answersSource());
console.log(`wrote ${ANSWERS_FILE.pathname}`);
