import { validationError } from '../../../errors/api-error.ts';

/**
 * Letters of other alphabets whose UTS #39 confusable prototype is a Latin letter (the
 * single-character entries of confusables.txt for Cyrillic, Greek and Armenian). The
 * `confusables` package maps far more loosely (e.g. Cyrillic "и" to "N"), which would refuse
 * ordinary Russian text, so the precise prototypes are kept here.
 */
const LOOKALIKES = new Set([
  // Cyrillic
  ...'аеорсухіјѕһԁԛԝӏѵԍԌ',
  ...'АВЕКМНОРСТХУІЈЅҮԜԚӀ',
  // Greek
  ...'οαινρκυχ',
  ...'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ',
  // Armenian
  ...'օսհոզցքւ',
]);

const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/u;
const WORD = /[\p{L}\p{M}]+/gu;
const SCRIPTS = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
] as const;

const scriptOf = (ch: string): string | undefined => SCRIPTS.find(([, re]) => re.test(ch))?.[0];

/**
 * Refuses a sender name or subject that disguises itself (spec send rule 8): invisible or
 * direction-override characters; a word that mixes look-alike letters of different alphabets;
 * a word spelled wholly in look-alike letters beside Latin words. Ordinary text in any script passes.
 */
export const assertNotDisguised = (text: string, field: string): void => {
  const hidden = INVISIBLE.exec(text);
  if (hidden) {
    const code = hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw validationError(`\`${field}\` contains an invisible or direction-override character (U+${code}); remove it.`);
  }
  const words = text.match(WORD) ?? [];
  const hasLatinWord = words.some((w) => [...w].every((ch) => scriptOf(ch) === 'Latin' || /\p{M}/u.test(ch)));
  for (const word of words) {
    const letters = [...word].filter((ch) => !/\p{M}/u.test(ch));
    const scripts = new Set(letters.map(scriptOf).filter(Boolean));
    if (scripts.size > 1 && scripts.has('Latin') && letters.some((ch) => scriptOf(ch) !== 'Latin' && LOOKALIKES.has(ch))) {
      throw validationError(`\`${field}\` mixes look-alike letters of different alphabets in the word "${word}" (${[...scripts].join(' and ')}); write it in one alphabet.`);
    }
    if (hasLatinWord && letters.length > 1 && !scripts.has('Latin') && letters.every((ch) => LOOKALIKES.has(ch))) {
      throw validationError(`\`${field}\` spells "${word}" wholly in ${[...scripts].join('/')} letters that look Latin, beside Latin words; write it in Latin letters.`);
    }
  }
};
