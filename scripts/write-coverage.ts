/** Rewrites the README's list of served production operations (between its markers). */
import { readFileSync, writeFileSync } from 'node:fs';
import { withCoverage } from './coverage.js';

const file = new URL('../README.md', import.meta.url);
writeFileSync(file, withCoverage(readFileSync(file, 'utf8')));
console.log(`updated ${file.pathname}`);
