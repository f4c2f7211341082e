/**
 * Letter-to-sound rules for words the dictionary does not know, in the style of the NRL report (Elovitz,
 * Johnson, McHugh & Shore, 1976): each rule is `left[letters]right=PHONES`; the first rule whose letters
 * and both contexts match at the current position wins, emits its phones and consumes its letters.
 * The rule set here is our own, smaller than the report's, tuned for plausible singing of made-up words.
 *
 * Context symbols: ' ' word edge, '#' one or more vowels, ':' zero or more consonants, '^' one consonant,
 * '.' a voiced consonant, '+' a front vowel (e i y), '%' a suffix (er e es ed ing ely),
 * '&' a sibilant (s c g z x j ch sh), '@' a consonant that makes "u" say UW (t s r d l z n j th ch sh).
 */
import { at } from '../checked.ts';
import type { Phone } from '../types.ts';
import { isVowel } from './phones.ts';

const RULES: Record<string, readonly string[]> = {
  a: [
    ' [a] =AH',
    '[are] =AA R',
    ' [ar]o=AH R',
    '[ar]#=EH R',
    '^[as]#=EY S',
    '[a]wa=AH',
    '[aw]=AO',
    ' :[any]=EH N IY',
    '[a]^+#=EY',
    '#:[ally]=AH L IY',
    ' [al]#=AH L',
    '[again]=AH G EH N',
    '#:[ag]e=IH JH',
    '[a]^%=EY',
    '[a]^+:#=AE',
    ' :[a]^+ =EY',
    ' [arr]=AH R',
    '[arr]=AE R',
    ' :[ar] =AA R',
    '[ar] =ER',
    '[ar]=AA R',
    '[air]=EH R',
    '[ai]=EY',
    '[ay]=EY',
    '[au]=AO',
    '#:[al] =AH L',
    '#:[als] =AH L Z',
    '[alk]=AO K',
    '[al]^=AO L',
    ' :[able]=EY B AH L',
    '[able]=AH B AH L',
    '[ang]+=EY N JH',
    '[a]=AE',
  ],
  b: [' [be]^#=B IH', '[being]=B IY IH NG', ' [both] =B OW TH', ' [bus]#=B IH Z', '[buil]=B IH L', '[b]=B'],
  c: [
    ' [ch]^=K',
    '^e[ch]=K',
    '[ch]=CH',
    ' s[ci]#=S AY',
    '[ci]a=SH',
    '[ci]o=SH',
    '[ci]en=SH',
    '[c]+=S',
    '[ck]=K',
    '[com]%=K AH M',
    '[c]=K',
  ],
  d: [
    '#:[ded] =D IH D',
    '.e[d] =D',
    '#^:e[d] =T',
    ' [de]^#=D IH',
    ' [do] =D UW',
    ' [does]=D AH Z',
    ' [dow]=D AW',
    '[du]a=JH UW',
    '[d]=D',
  ],
  e: [
    '#:[e] =',
    ' :[e] =IY',
    '#[ed] =D',
    '#:[e]d =',
    '[ev]er=EH V',
    '[e]^%=IY',
    '[eri]#=IY R IY',
    '[eri]=EH R IH',
    '#:[er]#=ER',
    '[er]#=EH R',
    '[er]=ER',
    ' [even]=IY V EH N',
    '#:[e]w=',
    '@[ew]=UW',
    '[ew]=Y UW',
    '[e]o=IY',
    '#:&[es] =IH Z',
    '#:[e]s =',
    '#:[ely] =L IY',
    '#:[ement]=M EH N T',
    '[eful]=F UH L',
    '[ee]=IY',
    '[earn]=ER N',
    ' [ear]^=ER',
    '[ead]=EH D',
    '#:[ea] =IY AH',
    '[ea]su=EH',
    '[ea]=IY',
    '[eigh]=EY',
    '[ei]=IY',
    ' [eye]=AY',
    '[ey]=IY',
    '[eu]=Y UW',
    '[e]=EH',
  ],
  f: ['[ful]=F UH L', '[f]=F'],
  g: [
    '[giv]=G IH V',
    ' [g]i^=G',
    '[ge]t=G EH',
    'su[gges]=G JH EH S',
    '[gg]=G',
    ' b#[g]=G',
    '[g]+=JH',
    '[great]=G R EY T',
    '#[gh]=',
    '[g]=G',
  ],
  h: [' [hav]=HH AE V', ' [here]=HH IY R', ' [hour]=AW ER', '[how]=HH AW', '[h]#=HH', '[h]='],
  i: [
    '[ify] =AH F AY',
    ' [in]=IH N',
    ' [i] =AY',
    '[in]d=AY N',
    '[ier]=IY ER',
    '#:r[ied] =IY D',
    '[ied] =AY D',
    '[ien]=IY EH N',
    '[ie]t=AY EH',
    ' :[i]%=AY',
    '[i]%=IY',
    '[ie]=IY',
    '[i]^+:#=IH',
    '[ir]#=AY R',
    '[iz]%=AY Z',
    '[is]%=AY Z',
    '[i]d%=AY',
    '+^[i]^+=IH',
    '[i]t%=AY',
    '#^:[i]^+=IH',
    '[i]^+=AY',
    '[ir]=ER',
    '[igh]=AY',
    '[ild]=AY L D',
    '[ign]=AY N',
    '[ique]=IY K',
    '[i]=IH',
  ],
  j: ['[j]=JH'],
  k: [' [k]n=', '[k]=K'],
  l: ['[lo]c#=L OW', 'l[l]=', '#:^[l]e =AH L', '#:^[l]es =AH L', '#:^[l]ed =AH L', '[lead]=L IY D', '[l]=L'],
  m: ['[mov]=M UW V', '[m]=M'],
  n: ['e[ng]+=N JH', '[ng]r=NG G', '[ng]#=NG G', '[ngl]%=NG G AH L', '[ng]=NG', '[nk]=NG K', ' [now] =N AW', '[n]=N'],
  o: [
    '[of] =AH V',
    '[orough]=ER OW',
    '#:[or] =ER',
    '#:[ors] =ER Z',
    '[or]=AO R',
    ' [one]=W AH N',
    '[ow]=OW',
    ' [over]=OW V ER',
    '[ov]=AH V',
    '[o]^%=OW',
    '[o]^en=OW',
    '[o]^i#=OW',
    '[ol]d=OW L',
    '[ought]=AO T',
    '[ough]=AH F',
    ' [ou]=AW',
    'h[ou]s#=AW',
    '[ous]=AH S',
    '[our]=AW R',
    '[ould]=UH D',
    '^[ou]^l=AH',
    '[oup]=UW P',
    '[ou]=AW',
    '[oy]=OY',
    '[oing]=OW IH NG',
    '[oi]=OY',
    '[oor]=AO R',
    '[ook]=UH K',
    '[ood]=UH D',
    '[oo]=UW',
    '[o]e=OW',
    '[o] =OW',
    '[oa]=OW',
    ' [only]=OW N L IY',
    ' [once]=W AH N S',
    "[on't]=OW N T",
    'c[o]n=AA',
    '[o]ng=AO',
    ' :^[o]n=AH',
    'i[on]=AH N',
    '#:[on] =AH N',
    '#^[on]=AH N',
    '[o]st =OW',
    '[of]^=AO F',
    '[other]=AH DH ER',
    '[oss] =AO S',
    '#:^[om]=AH M',
    '[o]=AA',
  ],
  p: ['[ph]=F', '[peop]=P IY P', '[pow]=P AW', '[put] =P UH T', '[p]=P'],
  q: ['[quar]=K W AO R', '[qu]=K W', '[q]=K'],
  r: [' [re]^#=R IY', '[r]=R'],
  s: [
    '[sh]=SH',
    '#[sion]=ZH AH N',
    '[some]=S AH M',
    '#[sur]#=ZH ER',
    '[sur]#=SH ER',
    '#[su]#=ZH UW',
    '#[ssu]#=SH UW',
    '#[sed] =Z D',
    '#[s]#=Z',
    '[said]=S EH D',
    '^[sion]=SH AH N',
    '[s]s=',
    '.[s] =Z',
    '#:.e[s] =Z',
    '#:^##[s] =Z',
    '#:^#[s] =S',
    'u[s] =S',
    ' :#[s] =Z',
    ' [sch]=S K',
    '[s]c+=',
    '#[sm]=Z M',
    '[s]=S',
  ],
  t: [
    ' [the] =DH AH',
    '[to] =T UW',
    '[that] =DH AE T',
    ' [this] =DH IH S',
    ' [they]=DH EY',
    ' [there]=DH EH R',
    '[ther]=DH ER',
    '[their]=DH EH R',
    ' [than] =DH AE N',
    ' [them] =DH EH M',
    '[these] =DH IY Z',
    ' [then]=DH EH N',
    '[through]=TH R UW',
    '[those]=DH OW Z',
    '[though] =DH OW',
    '[th]=TH',
    '#:[ted] =T IH D',
    's[ti]#n=CH',
    '[ti]o=SH',
    '[ti]a=SH',
    '[tien]=SH AH N',
    '[tur]#=CH ER',
    '[tu]a=CH UW',
    ' [two]=T UW',
    '[t]=T',
  ],
  u: [
    ' [un]i=Y UW N',
    ' [un]=AH N',
    ' [upon]=AH P AO N',
    '@[ur]#=UH R',
    '[ur]#=Y UH R',
    '[ur]^=ER',
    '[u]^ =AH',
    '[u]^^=AH',
    '[uy]=AY',
    ' g[u]#=',
    'g[u]%=',
    'g[u]#=W',
    '#n[u]=Y UW',
    '@[u]=UW',
    '[u]=Y UW',
  ],
  v: ['[view]=V Y UW', '[v]=V'],
  w: [
    ' [were]=W ER',
    '[wa]s=W AA',
    '[wa]t=W AA',
    '[where]=W EH R',
    '[what]=W AH T',
    '[whol]=HH OW L',
    '[who]=HH UW',
    '[wh]=W',
    '[war]=W AO R',
    '[wor]^=W ER',
    '[wr]=R',
    '[w]=W',
  ],
  x: ['[x]=K S'],
  y: [
    '[young]=Y AH NG',
    ' [you]=Y UW',
    ' [yes]=Y EH S',
    ' [y]=Y',
    '#:^[y] =IY',
    '#:^[y]i=IY',
    ' :[y] =AY',
    ' :[y]#=AY',
    ' :[y]^+:#=IH',
    ' :[y]^#=AY',
    '[y]=IH',
  ],
  z: ['[z]=Z'],
};

interface Rule {
  left: string;
  match: string;
  right: string;
  phones: Phone[];
}

const COMPILED: ReadonlyMap<string, Rule[]> = new Map(
  Object.entries(RULES).map(([letter, rules]) => [
    letter,
    rules.map((text) => {
      const rule = /^(.*)\[(.+)\](.*)=(.*)$/.exec(text);
      if (rule === null || !at(rule, 2).startsWith(letter))
        throw new Error(`Bad letter-to-sound rule "${text}" under "${letter}"`);
      return {
        left: at(rule, 1),
        match: at(rule, 2),
        right: at(rule, 3),
        phones: at(rule, 4).split(' ').filter(Boolean),
      };
    }),
  ]),
);

const VOWEL_LETTERS = 'aeiouy';
const VOICED = 'bdvgjlmnrwz';
const SUFFIXES = ['ing', 'ely', 'er', 'es', 'ed', 'e'];
const isLetter = (c: string | undefined): c is string => c !== undefined && c >= 'a' && c <= 'z';
const isVowelLetter = (c: string | undefined): boolean => c !== undefined && VOWEL_LETTERS.includes(c);
const isConsonantLetter = (c: string | undefined): boolean => isLetter(c) && !VOWEL_LETTERS.includes(c);

/** Phones (no stress) for a lower-case word of letters a-z and apostrophes. */
export function lettersToPhones(word: string): Phone[] {
  const phones: Phone[] = [];
  let i = 0;
  while (i < word.length) {
    const rules = COMPILED.get(at(word, i));
    const rule = rules?.find(
      (r) =>
        word.startsWith(r.match, i) &&
        matchesLeft(word, i - 1, r.left) &&
        matchesRight(word, i + r.match.length, r.right),
    );
    if (rule === undefined) {
      i++; // apostrophes and anything without a rule make no sound
      continue;
    }
    for (const phone of rule.phones) {
      // Doubled letters ("blorpp", "zz") are one sound.
      if (phones[phones.length - 1] !== phone || isVowel(phone)) phones.push(phone);
    }
    i += rule.match.length;
  }
  return phones;
}

/** Whether `pattern` matches reading right from `start` (the right context). */
const matchesRight = (word: string, start: number, pattern: string): boolean =>
  matchesContext(word, start, [...pattern], 1);
/** Whether `pattern` matches reading left from `end` (the left context, so the pattern is read backwards). */
const matchesLeft = (word: string, end: number, pattern: string): boolean =>
  matchesContext(word, end, [...pattern].reverse(), -1);

function matchesContext(word: string, from: number, symbols: readonly string[], step: 1 | -1): boolean {
  let i = from;
  for (const symbol of symbols) {
    const c = word[i];
    switch (symbol) {
      case ' ':
        if (isLetter(c)) return false;
        break;
      case '#':
        if (!isVowelLetter(c)) return false;
        while (isVowelLetter(word[i])) i += step;
        break;
      case ':':
        while (isConsonantLetter(word[i])) i += step;
        break;
      case '^':
        if (!isConsonantLetter(c)) return false;
        i += step;
        break;
      case '.':
        if (c === undefined || !VOICED.includes(c)) return false;
        i += step;
        break;
      case '+':
        if (c === undefined || !'eiy'.includes(c)) return false;
        i += step;
        break;
      case '%': {
        // Suffixes only ever follow the letters (right context).
        const suffix = step === 1 ? SUFFIXES.find((x) => word.startsWith(x, i)) : undefined;
        if (suffix === undefined) return false;
        i += suffix.length;
        break;
      }
      case '&':
      case '@': {
        const pair = step === 1 ? word.slice(i, i + 2) : word.slice(Math.max(0, i - 1), i + 1);
        const two = symbol === '&' ? ['ch', 'sh'] : ['th', 'ch', 'sh'];
        const one = symbol === '&' ? 'scgzxj' : 'tsrdlznj';
        if (pair.length === 2 && two.includes(pair)) i += 2 * step;
        else if (c !== undefined && one.includes(c)) i += step;
        else return false;
        break;
      }
      default:
        if (c !== symbol) return false;
        i += step;
    }
  }
  return true;
}
