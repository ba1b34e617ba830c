/**
 * Loopback stand-ins for the two Admin APIs `agent-catalog hooks --register` calls, built
 * from the vendors' documented shapes. Shopify: `POST /admin/api/<version>/graphql.json`
 * with `X-Shopify-Access-Token` (401 `{"errors": "[API] Invalid API key or access token …"}`
 * otherwise), answering `webhookSubscriptions(first, after, topics)` with
 * `{nodes {id topic uri}, pageInfo}` and `webhookSubscriptionCreate(topic,
 * webhookSubscription {uri, format})` with `{webhookSubscription, userErrors}` (a uri that
 * is not https is a user error). WooCommerce: `GET|POST /wp-json/wc/v3/webhooks` with HTTP
 * Basic REST API keys (401 `woocommerce_rest_cannot_view` otherwise), webhooks as
 * `{id, name, status, topic, resource, event, delivery_url}`; the secret a `POST` carries is
 * kept but never listed, as WooCommerce does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SHOPIFY_TOKEN = 'shpat_stand-in-admin-token';
export const WOO_KEY = 'ck_stand-in-key';
export const WOO_SECRET = 'cs_stand-in-secret';

export interface StandIn {
  origin: string;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<StandIn> {
  const server = createServer((req, res) => {
    handler(req, res).catch(() => send(res, 500, { errors: 'stand-in failed' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ShopifySubscription {
  id: string;
  topic: string;
  uri: string;
}

export interface ShopifyStandIn extends StandIn {
  subscriptions: ShopifySubscription[];
  mutations: number;
}

interface GraphqlBody {
  query: string;
  variables: {
    after?: string | null;
    topics?: string[];
    topic?: string;
    subscription?: { uri?: string; format?: string };
  };
}

export async function startShopifyAdmin(seed: ShopifySubscription[] = []): Promise<ShopifyStandIn> {
  const state = { subscriptions: [...seed], mutations: 0 };
  const standIn = await listen(async (req, res) => {
    if (req.method !== 'POST' || !/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(req.url ?? '')) {
      send(res, 404, { errors: 'Not Found' });
      return;
    }
    if (req.headers['x-shopify-access-token'] !== SHOPIFY_TOKEN) {
      send(res, 401, {
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      });
      return;
    }
    const { query, variables } = (await readJson(req)) as GraphqlBody;
    if (query.includes('webhookSubscriptionCreate(')) {
      state.mutations += 1;
      const uri = variables.subscription?.uri ?? '';
      if (!uri.startsWith('https://')) {
        send(res, 200, {
          data: {
            webhookSubscriptionCreate: {
              webhookSubscription: null,
              userErrors: [
                {
                  field: ['webhookSubscription', 'uri'],
                  message: 'Address protocol http:// is not supported',
                },
              ],
            },
          },
        });
        return;
      }
      const created = {
        id: `gid://shopify/WebhookSubscription/${1000 + state.subscriptions.length}`,
        topic: variables.topic ?? '',
        uri,
      };
      state.subscriptions.push(created);
      send(res, 200, {
        data: { webhookSubscriptionCreate: { webhookSubscription: created, userErrors: [] } },
      });
      return;
    }
    if (query.includes('webhookSubscriptions(')) {
      const topics = variables.topics;
      const nodes = state.subscriptions.filter((node) => topics === undefined || topics.includes(node.topic));
      send(res, 200, {
        data: { webhookSubscriptions: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } },
      });
      return;
    }
    send(res, 200, { errors: [{ message: 'Field does not exist on QueryRoot' }] });
  });
  return {
    ...standIn,
    get subscriptions() {
      return state.subscriptions;
    },
    get mutations() {
      return state.mutations;
    },
  };
}

export interface WooWebhook {
  id: number;
  name: string;
  status: string;
  topic: string;
  delivery_url: string;
  secret?: string;
}

export interface WooStandIn extends StandIn {
  webhooks: WooWebhook[];
  creates: number;
}

export async function startWooAdmin(seed: WooWebhook[] = []): Promise<WooStandIn> {
  const state = { webhooks: [...seed], creates: 0 };
  const expected = `Basic ${Buffer.from(`${WOO_KEY}:${WOO_SECRET}`).toString('base64')}`;
  const standIn = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/wp-json/wc/v3/webhooks') {
      send(res, 404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
      return;
    }
    if (req.headers.authorization !== expected) {
      send(res, 401, {
        code: 'woocommerce_rest_cannot_view',
        message: 'Sorry, you cannot list resources.',
        data: { status: 401 },
      });
      return;
    }
    if (req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? '10');
      const page = Number(url.searchParams.get('page') ?? '1');
      const listed = state.webhooks
        .slice((page - 1) * perPage, page * perPage)
        .map(({ secret: _secret, ...hook }) => {
          const [resource, event] = hook.topic.split('.');
          return { ...hook, resource, event };
        });
      send(res, 200, listed);
      return;
    }
    const body = (await readJson(req)) as Partial<WooWebhook>;
    state.creates += 1;
    const created: WooWebhook = {
      id: 100 + state.webhooks.length,
      name: body.name ?? '',
      status: body.status ?? 'active',
      topic: body.topic ?? '',
      delivery_url: body.delivery_url ?? '',
      ...(body.secret !== undefined ? { secret: body.secret } : {}),
    };
    state.webhooks.push(created);
    send(res, 201, { ...created, secret: undefined });
  });
  return {
    ...standIn,
    get webhooks() {
      return state.webhooks;
    },
    get creates() {
      return state.creates;
    },
  };
}
