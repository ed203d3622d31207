import { describe, expect, it } from 'vitest';
import { assertNotDisguised } from '@mailstack/core/domain/emails/rules/lookalikes';

const refused = (text: string) => {
  try {
    assertNotDisguised(text, 'subject');
  } catch (error) {
    return error as { statusCode: number; name: string; message: string };
  }
  return null;
};

describe('assertNotDisguised', () => {
  it.each([
    ['Cyrillic a in PayPal', 'Your PаyPal account is limited'],
    ['Cyrillic a opening apple', 'аpple ID locked'],
    ['Greek omicron in Microsoft', 'Micrοsoft 365 renewal'],
    ['Cyrillic o in Amazon', 'Amazоn order update'],
    ['Cyrillic o and e in Google', 'Gооglе security alert'],
    ['Cyrillic c in Chase bank', 'Сhase Bank: verify now'],
    ['Cyrillic i in Citibank', 'Cіtibank notice'],
    ['Greek nu and kappa in Bank', 'Your Baνk statement'],
    ['all-Cyrillic PAYPAL in capitals beside Latin words (with Latin L)', 'Your РАУРАL account'],
    ['lower-case raypal with Latin l', 'раураl security team'],
    ['all-look-alike Cyrillic word beside Latin words', 'Pay with РАУРА today'],
    ['all-look-alike Cyrillic "аррlе" beside Latin words', 'Sign in to аррlе now'],
    ['zero-width space splitting PayPal', 'Pay\u200BPal'],
    ['zero-width joiner inside a Latin word', 'Pay\u200DPal'],
    ['zero-width non-joiner inside a Latin word', 'Am\u200Cazon'],
    ['word joiner', 'Goo\u2060gle'],
    ['byte order mark', '\uFEFFInvoice'],
    ['soft hyphen', 'Pay\u00ADPal'],
    ['right-to-left override filename', 'invoice\u202Efdp.exe'],
    ['left-to-right override', '\u202DHello'],
    ['right-to-left isolate', 'Receipt \u2067gpj.exe\u2069'],
    ['right-to-left mark', 'Bank\u200F notice'],
  ])('refuses %s', (_label, text) => {
    const error = refused(text);
    expect(error?.statusCode).toBe(422);
    expect(error?.name).toBe('validation_error');
    expect(error?.message).toContain('subject');
  });

  it.each([
    ['Russian', 'Привет, ваш заказ отправлен'],
    ['Russian with a Latin brand', 'Заказ с Amazon отправлен'],
    ['Greek', 'Γειά σου κόσμε, η παραγγελία σας εστάλη'],
    ['Chinese', '你好世界，您的订单已发货'],
    ['Japanese mixing Han, Hiragana, Katakana', 'こんにちは、カタカナと漢字のご案内'],
    ['Japanese with a Latin product name', 'iPhone版のご案内'],
    ['Korean', '안녕하세요, 주문이 발송되었습니다'],
    ['Arabic', 'مرحبا بالعالم، تم شحن طلبك'],
    ['Hebrew', 'שלום עולם, ההזמנה נשלחה'],
    ['Hindi', 'नमस्ते दुनिया, आपका ऑर्डर भेज दिया गया'],
    ['Persian with a zero-width non-joiner', 'می\u200Cخواهم'],
    ['accented Latin', 'café, Müller, naïve, Straße, señor, Łódź'],
    ['a brand with diacritics', 'Café Zoë'],
    ['emoji including a ZWJ family', 'Party time 🎉 👨\u200D👩\u200D👧 ❤️'],
    ['digits and punctuation', 'Order #123 — 50% off! (today only) $9.99'],
    ['empty', ''],
  ])('accepts %s', (_label, text) => {
    expect(() => assertNotDisguised(text, 'subject')).not.toThrow();
  });
});
