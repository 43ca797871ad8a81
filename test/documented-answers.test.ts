import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ANSWERS_FILE, answersSource } from '../scripts/documented-answers.js';
import { allEndpoints } from '../src/app.js';
import { buildOpenApi } from '../src/openapi/build.js';
import { COMMITTED_SERVER_URL } from '../src/openapi/committed.js';
import type { DocumentedAnswers } from '../src/openapi/documented-answers.js';
import { BASE, testSandbox } from './support/app.js';

// ajv-formats is CommonJS: its default export is the plugin function itself.
const addFormats = formats as unknown as (ajv: Ajv2020) => Ajv2020;

type Content = Record<string, { schema?: Record<string, unknown>; example?: unknown }>;
type Operations = Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Content }> }>>;

const committed = JSON.parse(readFileSync(ANSWERS_FILE, 'utf8')) as DocumentedAnswers;

/** Every response example of a document: operation id, status, media type, schema and example. */
function responseExamples(document: { paths: Operations }) {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) =>
      Object.entries(operation.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {})
          .filter(([, entry]) => 'example' in entry)
          .map(([type, entry]) => ({ operationId: operation.operationId, status, type, schema: entry.schema!, example: entry.example })),
      ),
    ),
  );
}

describe("the API reference's response examples", () => {
  it('are the answers the examples get on a fresh sandbox (npm run docs:answers writes them)', async () => {
    expect(readFileSync(ANSWERS_FILE, 'utf8')).toBe(await answersSource());
  }, 120000);

  it('are in the document, each under the status and media type it was answered with', () => {
    const document = JSON.parse(JSON.stringify(buildOpenApi(allEndpoints(), COMMITTED_SERVER_URL)));
    const shown = responseExamples(document);
    expect(shown.map(({ operationId, status, type }) => `${operationId} ${status} ${type}`).sort()).toEqual(
      Object.entries(committed)
        .map(([id, answer]) => `${id} ${answer.status} ${answer.type}`)
        .sort(),
    );
    for (const { operationId, example } of shown) expect(example, operationId).toEqual(committed[operationId]!.body);
    // More than a hundred operations show a real answer; none shows the document itself.
    expect(shown.length).toBeGreaterThan(140);
    expect(committed).not.toHaveProperty('getOpenApiDocument');
  });

  it('validate against their own response schemas', () => {
    const document = JSON.parse(JSON.stringify(buildOpenApi(allEndpoints(), COMMITTED_SERVER_URL)));
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    for (const format of ['float', 'double', 'enum', 'int32', 'int64', 'binary']) ajv.addFormat(format, true);
    ajv.addSchema({ $id: 'document.json', components: document.components }, 'document.json');
    const problems: string[] = [];
    const shown = responseExamples(document);
    expect(shown.length).toBeGreaterThan(140);
    for (const { operationId, status, schema, example } of shown) {
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"document.json#/components/')));
      if (!validate(example)) problems.push(`${operationId} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
    expect(problems).toEqual([]);
  });

  it("show createShipment's answer naming Anna de Vries, with links to the serving sandbox", async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.get('/openapi.json');
    const created = answer.body.paths['/shipments'].post.responses['201'].content['application/vnd.api+json'].example;
    expect(created.data.type).toBe('shipments');
    expect(created.data.attributes.recipient_address).toMatchObject({ first_name: 'Anna', last_name: 'de Vries' });
    expect(created.data.relationships.shop.links.related).toMatch(new RegExp(`^${BASE}/shops/`));
    expect(JSON.stringify(answer.body)).not.toContain(COMMITTED_SERVER_URL);
  });

  it("show getDynamicServiceRates pricing a dynamic rate, not an empty list that teaches nothing of the answer's shape", () => {
    const rates = committed.getDynamicServiceRates!.body as { data: { attributes: { is_dynamic: boolean; price: { amount: number } } }[] };
    expect(rates.data.length).toBeGreaterThan(0);
    expect(rates.data[0]!.attributes).toMatchObject({ is_dynamic: true, price: { amount: expect.any(Number) } });
  });

  it('show a list by its first two entries, with the total and the links of the whole list', () => {
    const listed = committed.listShipments!.body as { data: unknown[]; meta: { total_records: number } };
    expect(listed.data).toHaveLength(2);
    expect(listed.meta.total_records).toBeGreaterThan(2);
  });
});
