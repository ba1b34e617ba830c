import { describe, expect, test } from 'vitest';
import {
  compareDecimal,
  formatDecimalPrice,
  formatMinorUnits,
  minorDigitsFor,
} from '../../../record/decimal-price.js';

describe('minorDigitsFor', () => {
  test.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['BHD', 3],
  ])('when the currency is %s then it has %i minor digits', (currency, digits) => {
    expect(minorDigitsFor(currency)).toBe(digits);
  });
});

describe('formatDecimalPrice', () => {
  test.each([
    ['1234.50', 2, '1234.50'],
    ['12', 2, '12.00'],
    ['12.5', 2, '12.50'],
    ['0', 2, '0.00'],
    ['0.00', 2, '0.00'],
    ['007.10', 2, '7.10'],
    ['12.345', 2, '12.35'],
    ['12.344', 2, '12.34'],
    ['0.995', 2, '1.00'],
    ['1200.00', 0, '1200'],
    ['1200.50', 0, '1201'],
    ['1.5', 3, '1.500'],
    ['99999999999999999999.99', 2, '99999999999999999999.99'],
    [' 4.20 ', 2, '4.20'],
  ])('when the upstream says %s with %i digits then the price is %s', (text, digits, expected) => {
    expect(formatDecimalPrice(text, digits)).toBe(expected);
  });

  test('when the amount would lose precision in floating point then the text is still exact', () => {
    // 0.1 + 0.2 style errors: 9007199254740993 is not representable as a double.
    expect(formatDecimalPrice('9007199254740993.07', 2)).toBe('9007199254740993.07');
  });

  test.each(['', '-1.00', '1,234.50', '1e3', '12.', '.5', 'abc', '12.50 USD', 'NaN'])(
    'when the upstream says %j then the price is unreadable',
    (text) => {
      expect(formatDecimalPrice(text, 2)).toBeUndefined();
    },
  );
});

describe('formatMinorUnits', () => {
  test.each([
    ['1234', 2, 2, '12.34'],
    ['5', 2, 2, '0.05'],
    ['0', 2, 2, '0.00'],
    ['1200', 0, 0, '1200'],
    ['12345', 3, 3, '12.345'],
    ['1234', 2, 0, '12'],
    ['1250', 2, 0, '13'],
    ['1234', 0, 2, '1234.00'],
  ])(
    'when the store says %s with minor unit %i then a %i-digit currency gets %s',
    (text, unit, digits, expected) => {
      expect(formatMinorUnits(text, unit, digits)).toBe(expected);
    },
  );

  test.each([
    ['12.34', 2],
    ['-5', 2],
    ['', 2],
    ['12', -1],
    ['12', 1.5],
  ])('when the store says %j with minor unit %s then the price is unreadable', (text, unit) => {
    expect(formatMinorUnits(text, unit, 2)).toBeUndefined();
  });
});

describe('compareDecimal', () => {
  test('when prices are sorted then the order is by value, not by text', () => {
    expect(['10.00', '9.50', '100.00', '0.99'].sort(compareDecimal)).toEqual([
      '0.99',
      '9.50',
      '10.00',
      '100.00',
    ]);
  });

  test('when prices have more digits than a double holds exactly then they still compare by value', () => {
    expect(compareDecimal('12345678901234567.01', '12345678901234567.02')).toBe(-1);
    expect(compareDecimal('99999999999999999.99', '9.99')).toBe(1);
    expect(compareDecimal('1234567890123.45', '1234567890123.45')).toBe(0);
  });
});
