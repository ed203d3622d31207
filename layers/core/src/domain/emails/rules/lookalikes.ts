import { remove as skeleton } from 'confusables';
import { validationError } from '../../../errors/api-error.ts';

// Invisible and direction-control characters that hide or reorder what the reader sees.
const BIDI = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u;
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible code point is listed on its own, combining ones included, to be found alone.
  /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}]/u;
const JOINERS = /[\u200C\u200D]/u;
const PICTO = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F/u;
const SCRIPT_LETTER = /[\p{L}\p{M}]/u;
const LATIN = /\p{Script=Latin}/u;
const COMMON = /[\p{Script=Common}\p{Script=Inherited}]/u;

// Letters of other scripts that are drawn exactly like Latin ones (UTS #39 confusables, strict subset).
const STRICT_LOOKALIKES = new Set([
  ...'аеорсухіјѕԁԛԝһӏɡ', // Cyrillic lower (and stray)
  ...'АВЕКМНОРСТХУІЈЅԌԚԜ', // Cyrillic upper
  ...'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοϲνκ', // Greek
  ...'ՕօՍսոհ', // Armenian
]);

const scriptOf = (char: string): string => {
  for (const script of ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee', 'Coptic', 'Georgian']) {
    if (new RegExp(`\\p{Script=${script}}`, 'u').test(char)) return script;
  }
  return 'Other';
};

/** A non-Latin letter whose skeleton is an ASCII letter (reads as Latin). */
const isLatinLookalike = (char: string): boolean => {
  if (LATIN.test(char) || !SCRIPT_LETTER.test(char)) return false;
  if (STRICT_LOOKALIKES.has(char)) return true;
  const plain = skeleton(char);
  return plain !== char && /^[A-Za-z]+$/.test(plain);
};

const codepoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

const checkInvisible = (text: string, field: string): void => {
  const chars = [...text];
  chars.forEach((char, index) => {
    if (BIDI.test(char)) {
      throw validationError(
        `\`${field}\` contains a text-direction control character (${codepoint(char)}), which can disguise what the reader sees; remove it.`,
      );
    }
    if (INVISIBLE.test(char)) {
      throw validationError(`\`${field}\` contains an invisible character (${codepoint(char)}); remove it.`);
    }
    if (JOINERS.test(char)) {
      const before = chars[index - 1] ?? '';
      const after = chars[index + 1] ?? '';
      // ZWJ inside an emoji sequence is normal.
      if (char === '\u200D' && PICTO.test(before) && PICTO.test(after)) return;
      // ZWJ/ZWNJ between letters of one non-Latin/Greek/Cyrillic script (Persian, Indic) is normal orthography.
      const sb = scriptOf(before);
      if (
        SCRIPT_LETTER.test(before) &&
        SCRIPT_LETTER.test(after) &&
        sb === 'Other' &&
        scriptOf(after) === 'Other' &&
        !COMMON.test(before)
      )
        return;
      throw validationError(`\`${field}\` contains an invisible joiner (${codepoint(char)}) inside text; remove it.`);
    }
  });
};

/** Refuses text disguised with look-alike letters or hidden characters (spec send rule 8). */
export const assertNotDisguised = (text: string, field: string): void => {
  if (typeof text !== 'string' || text === '') return;
  checkInvisible(text, field);
  const words = text
    .normalize('NFC')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => /\p{L}/u.test(word));
  const hasLatinWord = words.some(
    (word) => [...word].every((c) => !SCRIPT_LETTER.test(c) || LATIN.test(c) || COMMON.test(c)) && LATIN.test(word),
  );
  for (const word of words) {
    const letters = [...word].filter((c) => /\p{L}/u.test(c));
    const latin = letters.filter((c) => LATIN.test(c));
    const foreign = letters.filter((c) => !LATIN.test(c));
    const foreignLookalikes = foreign.filter(isLatinLookalike);
    if (latin.length > 0 && foreignLookalikes.length > 0) {
      const shown = foreignLookalikes.map((c) => `'${c}' (${scriptOf(c)} ${codepoint(c)})`).join(', ');
      throw validationError(
        `\`${field}\` word "${word}" mixes Latin letters with look-alike letters of another alphabet: ${shown}. Use one alphabet per word.`,
      );
    }
    // A word of non-Latin letters that could all pass for Latin letters, beside Latin words.
    if (hasLatinWord && latin.length === 0 && letters.length >= 3 && letters.every((c) => STRICT_LOOKALIKES.has(c))) {
      throw validationError(
        `\`${field}\` word "${word}" is spelled entirely in ${scriptOf(letters[0]!)} letters that look like Latin ones, beside Latin text; write it in Latin letters.`,
      );
    }
  }
};
