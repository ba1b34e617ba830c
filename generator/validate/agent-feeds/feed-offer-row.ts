/** A feed row reduced to the offer it states, as every feed's check compares it with the catalog. */
export interface FeedOfferRow {
  variantId: string;
  /** The page the document links for the variant; a document that links none (the knowledge base's table) leaves it out. */
  url?: string;
  price: string;
  salePrice?: string;
  currency: string;
  /** In the feed's own vocabulary; compared through the feed's availability table. */
  availability: string;
}
