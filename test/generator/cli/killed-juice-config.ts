/** The config of the stores whose builds the kill tests kill: 1,500 products from `products.json`, no shrink guard. */
export const KILLED_JUICE_CONFIG = {
  merchant: {
    name: 'Killed Juice',
    url: 'https://killed-juice.example',
    contact: 'hello@killed-juice.example',
    currency: 'USD',
    ships_to: ['US'],
  },
  auth_url: 'https://auth.killed-juice.example',
  upstream: { source: 'products.json', format: 'shopify' },
  build: { shrink_threshold: 0 },
};
