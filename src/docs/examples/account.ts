// Examples of the account side: organizations, brokers, shops, contracts, rates, hooks, zones,
// the address book, the catalogue, authentication and the sandbox controls.
import { anna, warehouse } from './bodies.js';
import type { ExampleIds } from './ids.js';
import { ref, type ExampleSet } from './types.js';

/** A 1 x 1 PNG, the smallest logo a shop can upload. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A system message of the tenant's broker. */
export const systemMessage = (ids: ExampleIds, content: string, level: string) => ({
  data: { type: 'system-messages', attributes: { content, level }, relationships: { broker: ref('brokers', ids.broker) } },
});

const style = { background_color: '#ffffff', foreground_color: '#1b1b1b', primary_color: '#2563eb', secondary_color: '#64748b', accent_color: '#f59e0b' };

export const accountExamples: ExampleSet = {
  createAccessToken: (ids) => ({ body: { grant_type: 'client_credentials', client_id: ids.client, client_secret: ids.clientSecret, scope: '*' } }),
  listAddresses: () => ({ query: { 'filter[search]': 'Kalverstraat' } }),
  createAddress: (ids) => ({
    body: { data: { type: 'addresses', attributes: { ...anna, first_name: 'Jan' }, relationships: { organization: ref('organizations', ids.organization) } } },
  }),
  getAddress: (ids) => ({ path: { address_id: ids.made('address') } }),
  updateAddress: (ids) => ({
    path: { address_id: ids.made('address') },
    body: {
      data: {
        type: 'addresses',
        id: ids.made('address'),
        attributes: { phone_number: '+31687654321', company: 'De Vries Design' },
        relationships: { organization: ref('organizations', ids.organization) },
      },
    },
  }),
  deleteAddress: (ids) => ({ path: { address_id: ids.made('address-to-delete') } }),
  suggestAddress: () => ({ body: { data: { country_code: 'NL', postal_code: '1012 PH', street_number: 92 } } }),
  listOrganizations: () => ({}),
  createOrganization: (ids) => ({
    admin: true,
    body: {
      data: {
        type: 'organizations',
        attributes: { name: 'Bakker Fietsen B.V.', billing_address: { ...warehouse, company: 'Bakker Fietsen B.V.' }, reference: 'bakker-fietsen' },
        relationships: { broker: ref('brokers', ids.broker) },
      },
    },
  }),
  getOrganization: (ids) => ({ path: { organization_id: ids.organization } }),
  updateOrganization: (ids) => ({
    path: { organization_id: ids.organization },
    body: {
      data: { type: 'organizations', id: ids.organization, attributes: { reference: 'customer-4711' }, relationships: { broker: ref('brokers', ids.broker) } },
    },
  }),
  deleteOrganization: (ids) => ({ admin: true, path: { organization_id: ids.made('organization-to-delete') } }),
  listOrganizationContracts: (ids) => ({ path: { organization_id: ids.organization } }),
  shareOrganizationContracts: (ids) => ({
    admin: true,
    path: { organization_id: ids.organization },
    body: { data: [ref('contracts', ids.brokerContract('dhl-express')).data] },
  }),
  unshareOrganizationContracts: (ids) => ({
    admin: true,
    path: { organization_id: ids.organization },
    body: { data: [ref('contracts', ids.brokerContract('evri')).data] },
  }),
  listBrokers: () => ({}),
  createBroker: () => ({
    admin: true,
    body: {
      data: {
        type: 'brokers',
        attributes: {
          name: 'Parcel Partners',
          domain: 'partners.example.com',
          logo_url: 'https://partners.example.com/logo.svg',
          favicon_url: 'https://partners.example.com/favicon.ico',
          style,
        },
        relationships: { enterprise: ref('enterprises', '4b2a1f6e-7c3d-4e8f-9a0b-1c2d3e4f5a6b') },
      },
    },
  }),
  getBroker: (ids) => ({ path: { broker_id: ids.broker } }),
  updateBroker: (ids) => ({
    admin: true,
    path: { broker_id: ids.broker },
    body: {
      data: {
        type: 'brokers',
        id: ids.broker,
        attributes: { support_url: 'https://broker.example.com/help' },
        relationships: { enterprise: ref('enterprises', ids.enterprise) },
      },
    },
  }),
  listBrokerCarriers: (ids) => ({ path: { broker_id: ids.broker } }),
  addBrokerCarriers: (ids) => ({ admin: true, path: { broker_id: ids.broker }, body: { data: [ref('carriers', ids.carrier('bpost')).data] } }),
  removeBrokerCarriers: (ids) => ({ admin: true, path: { broker_id: ids.broker }, body: { data: [ref('carriers', ids.carrier('evri')).data] } }),
  listShops: () => ({ query: { 'filter[search]': 'Store' } }),
  createShop: (ids) => ({
    body: {
      data: {
        type: 'shops',
        attributes: { name: 'Example Outlet', website: 'https://outlet.example.com', sender_address: warehouse, return_address: warehouse },
        relationships: { organization: ref('organizations', ids.organization) },
      },
    },
  }),
  getShop: (ids) => ({ path: { shop_id: ids.shop } }),
  updateShop: (ids) => ({
    path: { shop_id: ids.shop },
    body: {
      data: {
        type: 'shops',
        id: ids.shop,
        attributes: { website: 'https://shop.example.com' },
        relationships: { organization: ref('organizations', ids.organization) },
        meta: { logo: { mime_type: 'image/png', contents: TINY_PNG } },
      },
    },
  }),
  deleteShop: (ids) => ({ path: { shop_id: ids.made('shop-to-delete') } }),
  getLogo: (ids) => ({ path: { logo_id: ids.publicId('shop-to-delete', 0) } }),
  listLocales: () => ({ query: { 'filter[available_in_return_portal]': true } }),
  listCarriers: () => ({}),
  getCarrier: (ids) => ({ path: { carrier_id: ids.carrier('postnl') } }),
  getBrandLogo: () => ({ path: { brand_logo: 'carrier-postnl.svg' } }),
  listCarrierContracts: (ids) => ({ path: { carrier_id: ids.carrier('postnl') } }),
  listContracts: () => ({ query: { 'filter[status]': 'active' } }),
  createContract: (ids) => ({
    body: {
      data: {
        type: 'contracts',
        attributes: {
          name: 'Our own PostNL contract',
          currency: 'EUR',
          credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6' },
        },
        relationships: { carrier: ref('carriers', ids.carrier('postnl')), owner: ref('organizations', ids.organization) },
      },
    },
  }),
  getContract: (ids) => ({ path: { contract_id: ids.brokerContract('postnl') } }),
  updateContract: (ids) => ({
    path: { contract_id: ids.made('contract') },
    body: { data: { type: 'contracts', id: ids.made('contract'), attributes: { name: 'PostNL, own account' } } },
  }),
  deleteContract: (ids) => ({ path: { contract_id: ids.made('contract-to-delete') } }),
  validateContract: (ids) => ({ path: { contract_id: ids.made('contract') } }),
  getLiabilityCoverage: (ids) => ({ path: { liability_coverage_id: ids.coverage('postnl') } }),
  listContractTemplates: (ids) => ({ query: { 'filter[carrier]': ids.carrier('postnl') } }),
  createContractTemplate: (ids) => ({
    admin: true,
    body: {
      data: {
        type: 'contract-templates',
        attributes: { name: 'PostNL parcels only', description: 'Standard parcels from the Netherlands.', currency: 'EUR' },
        relationships: {
          broker: ref('brokers', ids.broker),
          carrier: ref('carriers', ids.carrier('postnl')),
          services: { data: [{ type: 'services', id: ids.service('postnl-parcel-standard') }] },
        },
      },
    },
  }),
  getContractTemplate: (ids) => ({ path: { contract_template_id: ids.template('postnl') } }),
  deleteContractTemplate: (ids) => ({ admin: true, path: { contract_template_id: ids.made('template-to-delete') } }),
  listSystemMessages: (ids) => ({ query: { 'filter[broker]': ids.broker, include: 'broker' } }),
  createSystemMessage: (ids) => ({ admin: true, body: systemMessage(ids, 'Collections in the Randstad run two hours later on 24 December.', 'warning') }),
  getSystemMessage: (ids) => ({ path: { system_message_id: ids.made('system-message') } }),
  updateSystemMessage: (ids) => ({
    admin: true,
    path: { system_message_id: ids.made('system-message') },
    body: {
      data: {
        type: 'system-messages',
        id: ids.made('system-message'),
        attributes: { level: 'success' },
        relationships: { broker: ref('brokers', ids.broker) },
      },
    },
  }),
  deleteSystemMessage: (ids) => ({ admin: true, path: { system_message_id: ids.made('system-message-to-delete') } }),
  listServices: () => ({ query: { 'filter[address_from][country_code]': 'NL', 'filter[address_to][country_code]': 'NL' } }),
  getService: (ids) => ({ path: { service_id: ids.service('postnl-parcel-standard') } }),
  listServiceOptions: () => ({}),
  getServiceOption: (ids) => ({ path: { service_option_id: ids.option('delivery-window:evening') } }),
  listServiceRates: (ids) => ({ query: { 'filter[service]': ids.service('postnl-parcel-standard'), 'filter[weight]': 1500 } }),
  createServiceRate: (ids) => ({
    body: {
      data: {
        type: 'service-rates',
        attributes: { weight_min: 0, weight_max: 2000, price: { amount: 595, currency: 'EUR' } },
        relationships: { service: ref('services', ids.service('postnl-parcel-standard')), contract: ref('contracts', ids.made('contract')) },
      },
    },
  }),
  getServiceRate: (ids) => ({ path: { service_rate_id: ids.made('service-rate') } }),
  updateServiceRate: (ids) => ({
    path: { service_rate_id: ids.made('service-rate') },
    body: { data: { type: 'service-rates', id: ids.made('service-rate'), attributes: { price: { amount: 675, currency: 'EUR' } } } },
  }),
  listCarrierSurcharges: (ids) => ({ query: { 'filter[carrier]': ids.carrier('postnl') } }),
  createCarrierSurcharge: (ids) => ({
    body: {
      data: {
        type: 'carrier-surcharges',
        attributes: { name: 'Saturday handling', description: 'Weekend staff', fee: { amount: 95, currency: 'EUR' } },
        relationships: { carrier: ref('carriers', ids.carrier('dpd')) },
      },
    },
  }),
  getCarrierSurcharge: (ids) => ({ path: { carrier_surcharge_id: ids.made('carrier-surcharge') } }),
  updateCarrierSurcharge: (ids) => ({
    path: { carrier_surcharge_id: ids.made('carrier-surcharge') },
    body: {
      data: {
        type: 'carrier-surcharges',
        id: ids.made('carrier-surcharge'),
        attributes: { fee: { amount: 175, currency: 'EUR' } },
        relationships: { carrier: ref('carriers', ids.carrier('postnl')) },
      },
    },
  }),
  deleteCarrierSurcharge: (ids) => ({ path: { carrier_surcharge_id: ids.made('carrier-surcharge-to-delete') } }),
  listRegions: () => ({ query: { 'filter[country_code]': 'NL' } }),
  getRegion: (ids) => ({ path: { region_id: ids.region('Netherlands') } }),
  listStatuses: () => ({}),
  getStatus: (ids) => ({ path: { status_id: ids.status('shipment-delivered') } }),
  listZones: () => ({ query: { 'filter[country_code]': 'NL' } }),
  createZone: () => ({
    body: {
      data: {
        type: 'zones',
        attributes: {
          name: 'Wadden Islands',
          code: 'NL-WADDEN',
          description: 'Islands with a surcharge.',
          postal_code: '^(17[89]|88[89]|89[0-9]|9[0-9]{3}) ?',
          country_codes: ['NL'],
        },
      },
    },
  }),
  getZone: (ids) => ({ path: { zone_id: ids.zone('NL') } }),
  updateZone: (ids) => ({
    path: { zone_id: ids.made('zone') },
    body: { data: { type: 'zones', id: ids.made('zone'), attributes: { country_codes: ['NL', 'BE', 'LU', 'DE'] } } },
  }),
  deleteZone: (ids) => ({ path: { zone_id: ids.made('zone-to-delete') } }),
  listHooks: () => ({ query: { 'filter[trigger][resource_type]': 'shipments' } }),
  createHook: (ids) => ({
    body: {
      data: {
        type: 'hooks',
        attributes: {
          name: 'Heavy parcels go by DPD',
          order: 10,
          active: true,
          trigger: {
            resource_type: 'shipments',
            resource_action: 'create',
            predicates: [{ pointer: '/attributes/physical_properties/weight', operator: '>', value: 20000 }],
          },
          action: {
            action_type: 'update-resource',
            values: [{ pointer: '/relationships/service/data/id', value: 'dpd-classic', converter: 'service-code-to-id' }],
          },
        },
        relationships: { owner: ref('organizations', ids.organization) },
      },
    },
  }),
  getHook: (ids) => ({ path: { hook_id: ids.made('hook') } }),
  updateHook: (ids) => ({
    path: { hook_id: ids.made('hook') },
    body: { data: { type: 'hooks', id: ids.made('hook'), attributes: { order: 20 }, relationships: { owner: ref('shops', ids.shop) } } },
  }),
  deleteHook: (ids) => ({ path: { hook_id: ids.made('hook-to-delete') } }),
  listHookLogs: (ids) => ({ path: { hook_id: ids.made('hook') } }),
  getApiReferenceAsset: () => ({ path: { file: 'docs.css' } }),
  makeSandboxExampleRows: () => ({ body: {} }),
  moveSandboxClock: () => ({ body: { advance: 60 } }),
  getSandboxQuotas: (ids) => ({ query: { client_id: ids.client } }),
  changeSandboxQuotas: (ids) => ({ admin: true, body: { client_id: ids.client, hooks: 100 } }),
  listSandboxRequests: () => ({ query: { path: '/shipments', limit: 5 } }),
  resetSandbox: (ids) => ({ body: { client_id: ids.client } }),
  revokeSandboxTokens: (ids) => ({ body: { client_id: ids.client } }),
  createSandboxTenant: () => ({ admin: true, body: { name: 'CI job 4711', country_code: 'NL', ttl: 3600 } }),
  deleteSandboxTenant: (ids) => ({ admin: true, path: { tenant: ids.made('tenant-to-delete') } }),
  // A pack of one row, loaded into a tenant made for it: the seeded organizations take packs at start only.
  loadSandboxFixtures: (ids) => ({
    admin: true,
    body: { tenant: ids.made('tenant-for-pack'), pack: { shops: [{ key: 'outlet', country_code: 'NL', name: 'Outlet store' }] } },
  }),
};
