/**
 * The GraphQL documents of a bulk export: the products query that runs in bulk, the
 * mutation that starts it and the query that polls it. The products query selects what the
 * storefront adapter maps (vendor, product type, tags, options, variants with SKU,
 * barcode, compare-at price, availability and shipping need, images) plus what decides
 * whether a shopper can see the product at all (`status`, `onlineStoreUrl`).
 *
 * `status:active` lets Shopify leave drafts and archived products out of the file; whether
 * a product is published to the online store has no search filter with a documented meaning
 * for every store, so `onlineStoreUrl` ("null indicates that the product isn't published to
 * the Online Store sales channel") is read per product by `admin-product.ts`.
 */

export const BULK_PRODUCTS_QUERY = `{
  products(query: "status:active") {
    edges {
      node {
        id
        handle
        title
        descriptionHtml
        vendor
        productType
        tags
        status
        onlineStoreUrl
        updatedAt
        options { name optionValues { name } }
        media {
          edges { node { ... on MediaImage { id image { url altText width height } } } }
        }
        variants {
          edges {
            node {
              id
              title
              price
              compareAtPrice
              sku
              barcode
              availableForSale
              selectedOptions { name value }
              inventoryItem { requiresShipping }
              image { url }
            }
          }
        }
      }
    }
  }
}`;

export const RUN_BULK_QUERY = `mutation RunProductsExport($query: String!) {
  bulkOperationRunQuery(query: $query) {
    bulkOperation { id status }
    userErrors { field message }
  }
}`;

export const POLL_BULK_OPERATION = `query PollProductsExport($id: ID!) {
  node(id: $id) {
    ... on BulkOperation { id status errorCode objectCount fileSize url }
  }
}`;
