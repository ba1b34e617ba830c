/**
 * Messages that quote the catalog's own words, worded only at the end of a check. The
 * gate's references keep digests and numbers, not the catalog's text, so a message that
 * names a slug, a price as the catalog writes it or a variant's offer waits, naming the
 * place of the catalog product it quotes; once the check is done the few products the
 * kept messages name are read again from the catalog and each message is worded from its
 * product's text. The consistency check (`ProblemList`) and the agent feeds' check both
 * word their messages here.
 */
import { offersOf, type VariantOffer } from '../../record/variant-offers.js';
import { isRecordLike } from './agent-feeds/record-like.js';
import { stringField } from './bundle-layout.js';
import { readVariantIds } from './catalog-products.js';

/** The catalog's own words for one product, read again for the few messages that quote them. */
export interface ProductText {
  id: string;
  url: string;
  slug: string;
  price: string;
  variantIds: readonly string[];
  /** Each variant's offer by the rule the feeds are written with (`offerOf`), in the record's order. */
  offers: readonly VariantOffer[];
}

/** A message that quotes the catalog's text of the product at `place` in the catalog's list. */
export interface PendingMessage {
  place: number;
  say: (product: ProductText) => string;
}

export type Message = string | PendingMessage;

/** The catalog's text of the products at the places asked for, read again from its records. */
export function readProductTexts(
  products: Iterable<unknown>,
  wanted: ReadonlySet<number>,
): Map<number, ProductText> {
  const texts = new Map<number, ProductText>();
  let place = 0;
  for (const record of products) {
    if (wanted.has(place)) {
      texts.set(place, {
        id: stringField(record, 'id') ?? '',
        url: stringField(record, 'url') ?? '',
        slug: stringField(record, 'slug') ?? '',
        price: stringField(record, 'price') ?? '',
        variantIds: readVariantIds(record),
        offers: isRecordLike(record) ? offersOf(record) : [],
      });
    }
    place += 1;
  }
  return texts;
}

/**
 * The messages worded, in their order: the pending ones from the text of the products they
 * name, read by `products` (called only when a message is pending).
 */
export function wordMessages(messages: readonly Message[], products: () => Iterable<unknown>): string[] {
  const wanted = new Set<number>();
  for (const message of messages) if (typeof message !== 'string') wanted.add(message.place);
  const known = wanted.size === 0 ? new Map<number, ProductText>() : readProductTexts(products(), wanted);
  return messages.map((message) => {
    if (typeof message === 'string') return message;
    const text = known.get(message.place);
    if (text === undefined)
      throw new Error(`the catalog's product ${message.place} was not found when read again`);
    return message.say(text);
  });
}
