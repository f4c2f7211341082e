/** Digits in lyrics are sung as words: "2" -> "two", "1999" -> "one thousand nine hundred ninety-nine". */

import { at } from '../checked.ts';

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** Spelled words for a string of digits; beyond a million, digit by digit ("007" is sung "zero zero seven"). */
export function spellNumber(digits: string): string[] {
  if (!/^\d+$/.test(digits)) throw new RangeError(`Not a number: "${digits}"`);
  if (digits.length > 6 || (digits.length > 1 && digits.startsWith('0')))
    return [...digits].map((d) => at(ONES, Number(d)));
  return belowMillion(Number(digits));
}

function belowMillion(n: number): string[] {
  if (n < 1000) return belowThousand(n);
  const rest = n % 1000;
  return [...belowThousand(Math.floor(n / 1000)), 'thousand', ...(rest === 0 ? [] : belowThousand(rest))];
}

function belowThousand(n: number): string[] {
  if (n < 20) return [at(ONES, n)];
  if (n < 100) return n % 10 === 0 ? [at(TENS, Math.floor(n / 10))] : [at(TENS, Math.floor(n / 10)), at(ONES, n % 10)];
  const rest = n % 100;
  return [at(ONES, Math.floor(n / 100)), 'hundred', ...(rest === 0 ? [] : belowThousand(rest))];
}
