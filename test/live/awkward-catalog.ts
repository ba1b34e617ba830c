/**
 * A catalog that stresses the search index's builder: names beyond Latin script and with
 * emoji, a word every product carries several times, a word only one product carries,
 * words repeated past a byte's count, and products with dozens of variants.
 */
import type { ProductRecord } from '../../record/product-record.js';
import { makeVariedRecords } from './varied-catalog.js';

export const COMMON_WORD = 'everyday';

const SCRIPTS = ['日本茶 緑茶', 'مشروب الطاقة', 'Ελληνικό τσάι', 'Чай зелёный', '🍋🍊 lemons', 'Açaí Ⅻ ½'];

/** The one word product `index` alone carries. */
export function oneOffWord(index: number): string {
  return `solo${index.toString(36)}q`;
}

export function makeAwkwardRecords(count: number): ProductRecord[] {
  return makeVariedRecords(count, 19).map((record, index) => {
    const many = index % 10 === 3;
    const variants = many
      ? Array.from({ length: 40 }, (_, v) => ({
          ...(record.variants[0] as ProductRecord['variants'][number]),
          id: `${record.id}-many-${v}`,
          title: `Pack ${v}`,
          price: (((v * 37) % 1_900) + 50 + index).toFixed(2),
          availability: v % 3 === 0 ? ('out_of_stock' as const) : ('in_stock' as const),
        }))
      : record.variants;
    return {
      ...record,
      name: `${SCRIPTS[index % SCRIPTS.length]} ${record.name} ${oneOffWord(index)}`,
      description: `${record.description ?? ''} ${COMMON_WORD} ${`${COMMON_WORD} `.repeat(index % 4)}${
        index % 50 === 7 ? `${'zest '.repeat(300)}` : ''
      }`,
      tags: index % 25 === 0 ? [...record.tags, `${COMMON_WORD}`, `${'peel '.repeat(270)}`] : record.tags,
      variants,
    };
  });
}
