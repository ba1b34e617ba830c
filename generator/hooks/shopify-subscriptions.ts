/**
 * Registers the receiver with Shopify through the GraphQL Admin API (the version the
 * `shopify_admin` source is written against):
 * lists the shop's webhook subscriptions for the catalog topics
 * (`webhookSubscriptions(first, after, topics) { nodes { id topic uri } pageInfo }`), and
 * creates only the ones missing for the receiver's URL (`webhookSubscriptionCreate(topic,
 * webhookSubscription: { uri, format: JSON })`), so running it again changes nothing. The
 * Admin API token goes in `X-Shopify-Access-Token`. Deliveries of subscriptions an app
 * creates are signed with that app's client secret: that is the receiver's secret.
 */
import { CatalogError } from '../errors.js';
import { requestAdminJson } from '../http/admin-request.js';
import { ADMIN_API_VERSION } from '../sources/shopify-admin/admin-endpoint.js';
import { isRecord } from '../validate/bundle-layout.js';

/** The GraphQL enum of each REST-style topic the receiver acts on. */
const TOPIC_ENUMS: Readonly<Record<string, string>> = {
  'products/create': 'PRODUCTS_CREATE',
  'products/update': 'PRODUCTS_UPDATE',
  'products/delete': 'PRODUCTS_DELETE',
  'inventory_levels/update': 'INVENTORY_LEVELS_UPDATE',
};

const LIST_QUERY = `query AgentCatalogHooks($after: String, $topics: [WebhookSubscriptionTopic!]) {
  webhookSubscriptions(first: 100, after: $after, topics: $topics) {
    nodes { id topic uri }
    pageInfo { hasNextPage endCursor }
  }
}`;

const CREATE_MUTATION = `mutation AgentCatalogHookCreate($topic: WebhookSubscriptionTopic!, $subscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $subscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

/** A shop has a handful of subscriptions; ten pages of 100 is far past any real one. */
const MAX_PAGES = 10;

export interface ShopifyTarget {
  /** `https://<shop>.myshopify.com` (or a loopback stand-in). */
  adminOrigin: string;
  token: string;
  userAgent: string;
}

export interface Registration {
  topic: string;
  status: 'created' | 'exists';
}

function shapeError(endpoint: string, what: string): CatalogError {
  return new CatalogError('UPSTREAM_SHAPE', `Shopify's Admin API answered ${endpoint} without ${what}`, {
    url: endpoint,
    status: 200,
  });
}

async function callGraphql(
  target: ShopifyTarget,
  query: string,
  variables: object,
): Promise<Record<string, unknown>> {
  const url = new URL(`/admin/api/${ADMIN_API_VERSION}/graphql.json`, target.adminOrigin);
  const response = await requestAdminJson(
    { method: 'POST', url, headers: { 'x-shopify-access-token': target.token }, body: { query, variables } },
    { userAgent: target.userAgent },
  );
  const body = response.body;
  if (!isRecord(body)) throw shapeError(response.url, 'a JSON object');
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const messages = body.errors.map((error) => (isRecord(error) ? String(error.message) : String(error)));
    throw new CatalogError(
      'UPSTREAM_HTTP',
      `Shopify's Admin API refused the request: ${messages.join('; ')}`,
      {
        url: response.url,
        status: response.status,
      },
    );
  }
  if (!isRecord(body.data)) throw shapeError(response.url, '`data`');
  return body.data;
}

/** The topics (GraphQL enums) already subscribed at `uri`. */
async function listSubscribedTopics(
  target: ShopifyTarget,
  uri: string,
  topics: readonly string[],
): Promise<Set<string>> {
  const subscribed = new Set<string>();
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const data = await callGraphql(target, LIST_QUERY, { after, topics });
    const connection = data.webhookSubscriptions;
    if (!isRecord(connection) || !Array.isArray(connection.nodes) || !isRecord(connection.pageInfo)) {
      throw shapeError('webhookSubscriptions', '`nodes` and `pageInfo`');
    }
    for (const node of connection.nodes) {
      if (isRecord(node) && node.uri === uri && typeof node.topic === 'string') subscribed.add(node.topic);
    }
    const { hasNextPage, endCursor } = connection.pageInfo;
    if (hasNextPage !== true || typeof endCursor !== 'string') break;
    after = endCursor;
  }
  return subscribed;
}

async function createSubscription(target: ShopifyTarget, uri: string, topic: string): Promise<void> {
  const data = await callGraphql(target, CREATE_MUTATION, { topic, subscription: { uri, format: 'JSON' } });
  const payload = data.webhookSubscriptionCreate;
  if (!isRecord(payload)) throw shapeError('webhookSubscriptionCreate', 'its payload');
  const errors = Array.isArray(payload.userErrors) ? payload.userErrors : [];
  if (errors.length > 0 || !isRecord(payload.webhookSubscription)) {
    const messages = errors.map((error) => (isRecord(error) ? String(error.message) : String(error)));
    throw new CatalogError(
      'UPSTREAM_HTTP',
      `Shopify refused the ${topic} subscription: ${messages.join('; ') || 'no subscription returned'}`,
      { topic, status: 200 },
    );
  }
}

export async function registerShopifySubscriptions(
  target: ShopifyTarget,
  uri: string,
  topics: readonly string[],
): Promise<Registration[]> {
  const enums = topics.map((topic) => {
    const value = TOPIC_ENUMS[topic];
    if (value === undefined) throw new TypeError(`no Shopify GraphQL topic for ${topic}`);
    return { topic, value };
  });
  const subscribed = await listSubscribedTopics(
    target,
    uri,
    enums.map(({ value }) => value),
  );
  const results: Registration[] = [];
  for (const { topic, value } of enums) {
    if (subscribed.has(value)) {
      results.push({ topic, status: 'exists' });
      continue;
    }
    await createSubscription(target, uri, value);
    results.push({ topic, status: 'created' });
  }
  return results;
}
