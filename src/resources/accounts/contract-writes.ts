import { z } from 'zod';
import { sameCredentials, openCredentials, sealCredentials } from '../../domain/credentials.js';
import { scheduleVerification } from '../../domain/contract-verification.js';
import { changesAny } from '../../domain/changes.js';
import { checkCurrencyChange } from '../../domain/rate-rules.js';
import type { Ctx } from '../../http/context.js';
import { principalOf } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { contractStatuses, currency, type ContractRecord } from '../../model/contract.js';
import { brokerCarrierIds } from '../../domain/tenancy.js';
import { contractKind, contractVisible } from './contract-kind.js';
import { contractIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { carrierVisible } from '../catalogue/carriers.js';
import { checkKeptRelationships, contractUpdateRelationships } from './contract-kept-relationships.js';

const manage = { anyOf: ['organizations.manage'] } as const;
const schemas = resourceSchemas(contractKind);
const credentials = z.record(z.string(), z.unknown()).describe("Write-only; shaped by the carrier's credentials_format.");
const factor = z.number().positive().max(100).describe('Multiplies the volumetric weight divisor of the services (default 1).');

// Contract attributes are an open object in production: unknown and read-only members are ignored.
const createRequest = resourceRequest({
  id: 'ContractCreateRequest',
  attributes: z.object({ name: z.string().min(1).max(255), currency, credentials, volumetric_weight_divisor_factor: factor.optional() }),
  relationships: z.object({
    carrier: toOneRef,
    owner: toOneRef,
    contract_template: toOneRef
      .optional()
      .describe("A template of your broker for the same carrier: the contract takes rates for the template's services only."),
  }),
});

const updateRequest = resourceRequest({
  id: 'ContractUpdateRequest',
  update: true,
  attributes: z
    .object({
      name: z.string().min(1).max(255),
      currency,
      credentials,
      volumetric_weight_divisor_factor: factor,
      status: z.enum(contractStatuses),
    })
    .partial()
    .default({}),
  relationships: contractUpdateRelationships,
});

/** The organization a new contract may belong to: only the caller's own. */
function ownerOf(ctx: Ctx, ref: z.infer<typeof toOneRef>): string {
  const principal = principalOf(ctx);
  const id = relatedId(ref, 'owner', ['organizations', 'brokers'])!;
  if (ref.data?.type === 'brokers') {
    throw ApiError.unprocessable(
      'Contracts shared by a broker are set up by the broker; own contracts belong to your organization.',
      '/data/relationships/owner/data/type',
    );
  }
  if (id !== principal.organizationId) throw unknownRelated('owner', 'organizations', id);
  return id;
}

/**
 * The template a new contract is made from, if any: one of the caller's broker, for the contract's
 * carrier. Also checks that the broker offers the carrier (GET /brokers/{id}/carriers).
 */
function templateOf(ctx: Ctx, ref: z.infer<typeof toOneRef> | undefined, carrierId: string): string | undefined {
  const { store } = ctx;
  const principal = principalOf(ctx);
  const broker = store.get('brokers', principal.brokerId);
  if (broker && !brokerCarrierIds(store, broker).includes(carrierId)) {
    throw ApiError.unprocessable(
      `Your broker does not offer carrier '${carrierId}' (see GET /brokers/${broker.id}/carriers).`,
      '/data/relationships/carrier/data/id',
    );
  }
  const id = relatedId(ref, 'contract_template', ['contract-templates'], false);
  if (id === undefined) return undefined;
  const template = store.get('contractTemplates', id);
  if (!template || template.broker_id !== principal.brokerId) throw unknownRelated('contract_template', 'contract-templates', id);
  if (template.carrier_id !== carrierId) {
    throw ApiError.unprocessable(`The contract template '${id}' is for another carrier than the contract.`, '/data/relationships/contract_template/data/id');
  }
  return id;
}

/** The next status of a PATCH that asks for `wanted`: only active <-> inactive may be switched. */
function nextStatus(current: ContractRecord['status'], wanted: ContractRecord['status'] | undefined): ContractRecord['status'] {
  if (wanted === undefined || wanted === current) return current;
  const switchable = (status: string) => status === 'active' || status === 'inactive';
  if (!switchable(current) || !switchable(wanted)) {
    throw ApiError.unprocessable(
      `The status of a contract can only be switched between active and inactive; this one is ${current} and cannot become ${wanted}.`,
      '/data/attributes/status',
    );
  }
  return wanted;
}

export const contractWriteEndpoints = [
  endpoint({
    method: 'post',
    path: '/contracts',
    operationId: 'createContract',
    summary: 'Add a contract with carrier credentials',
    description:
      "New contracts are `pending` and are verified after CONTRACT_VERIFICATION_DELAY seconds on the sandbox clock: credentials that satisfy the carrier's credentials_format make it `active`, others `invalid`. Any credentials value `invalid` forces `invalid`.",
    tag: 'Contracts',
    auth: manage,
    body: createRequest,
    responses: {
      201: { description: 'The new, pending contract.', schema: schemas.document },
      409: { description: 'The body type is not contracts (10007).' },
      422: { description: 'Unknown carrier, or an owner other than your organization (10008).' },
    },
    include: contractIncludes,
    handler: async (ctx, { body, include }) => {
      const { data } = body;
      checkIdentity(data, 'contracts');
      const carrierId = relatedId(data.relationships.carrier, 'carrier', ['carriers'])!;
      // A carrier a pack gave another tenant is unknown here, as it is to GET /carriers/{id}.
      const carrier = ctx.store.get('carriers', carrierId);
      if (!carrier || !carrierVisible(ctx, carrier)) throw unknownRelated('carrier', 'carriers', carrierId);
      const owner = ownerOf(ctx, data.relationships.owner);
      const templateId = templateOf(ctx, data.relationships.contract_template, carrierId);
      const now = ctx.clock.now();
      // Rendered in the transaction: while the contract waits to be durable, another request (a
      // DELETE of its owner organization) may remove what the answer includes.
      const { contract, document } = await ctx.store.transact((tx) => {
        const row = tx.insert('contracts', {
          id: tx.newId(),
          name: data.attributes.name,
          currency: data.attributes.currency,
          status: 'pending',
          volumetric_weight_divisor_factor: data.attributes.volumetric_weight_divisor_factor ?? 1,
          created_at: now,
          updated_at: now,
          carrier_id: carrierId,
          owner: { type: 'organizations', id: owner },
          ...(templateId ? { contract_template_id: templateId } : {}),
          credentials: sealCredentials(ctx.rules.credentialsKey, data.attributes.credentials),
        });
        scheduleVerification(tx, ctx.rules, row.id);
        return { contract: row, document: resourceDocument(ctx, contractKind, row, include) };
      });
      return jsonApi(document, 201, { location: ctx.url(contractKind.self(contract)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/contracts/{contract_id}',
    operationId: 'updateContract',
    summary: 'Change a contract',
    description:
      'Send only the attributes to change. `status` switches between active and inactive; new credentials send the contract back to pending and verify it again (a contract that is, or is being switched, `inactive` stays inactive once they pass). Read-only attributes are ignored; relationships may be sent as they are, but none can change.',
    tag: 'Contracts',
    auth: manage,
    params: z.object({ contract_id: z.string() }),
    body: updateRequest,
    responses: {
      200: { description: 'The whole updated contract.', schema: schemas.document },
      403: { description: 'A contract shared by the broker cannot be changed (10013).' },
      409: { description: 'The body type or id does not match (10007).' },
      422: {
        description:
          'A status change other than active <-> inactive, a new currency while rates or liability coverages of the contract hold prices, or another carrier, owner, template or set of liability coverages (10008).',
      },
    },
    include: contractIncludes,
    handler: async (ctx, { params, body, include }) => {
      const current = findOr404(ctx, 'contracts', 'contracts', params.contract_id, (row) => contractVisible(ctx, row));
      checkIdentity(body.data, 'contracts', current.id);
      if (current.owner.type !== 'organizations') {
        throw ApiError.of('actionNotAllowed', 'This contract is shared by your broker and cannot be changed.');
      }
      checkKeptRelationships(ctx, current, body.data.relationships);
      const changes = body.data.attributes;
      const status = nextStatus(current.status, changes.status);
      const rekeyed =
        changes.credentials !== undefined &&
        !(current.credentials && sameCredentials(openCredentials(ctx.rules.credentialsKey, current.credentials), changes.credentials));
      // Rendered in the transaction, as the create's answer is.
      const document = await ctx.store.transact((tx) => {
        if (changes.currency !== undefined) checkCurrencyChange(tx, current, changes.currency);
        const stored = tx.get('contracts', current.id) ?? current;
        const update: Partial<ContractRecord> = {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.currency !== undefined ? { currency: changes.currency } : {}),
          ...(changes.volumetric_weight_divisor_factor !== undefined ? { volumetric_weight_divisor_factor: changes.volumetric_weight_divisor_factor } : {}),
          status: rekeyed ? 'pending' : status,
          ...(rekeyed
            ? {
                credentials: sealCredentials(ctx.rules.credentialsKey, changes.credentials!),
                verification_errors: undefined,
                // Switched off before, or in this PATCH: new credentials do not switch it on again.
                keep_inactive: status === 'inactive' || (current.status === 'pending' && current.keep_inactive) ? true : undefined,
              }
            : {}),
        };
        // An update that changes nothing (the contract sent back as read, or `attributes: {}`)
        // leaves it as stored, updated_at included, as a save of an unchanged row does.
        if (!changesAny(stored, update)) return resourceDocument(ctx, contractKind, stored, include);
        const row = tx.update('contracts', current.id, { ...update, updated_at: ctx.clock.now() });
        if (rekeyed) scheduleVerification(tx, ctx.rules, row.id);
        return resourceDocument(ctx, contractKind, row, include);
      });
      return jsonApi(document);
    },
  }),
];
