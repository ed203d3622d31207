import { describe, expect, it } from 'vitest';
import { assertNotDisguised } from '@mailstack/core/domain/emails/rules/lookalikes';

describe('assertNotDisguised', () => {
  describe('refuses real spoofing patterns', () => {
    it.each([
      ['Cyrillic а inside PayPal', 'P\u0430yPal Security'],
      ['Cyrillic е and о in Microsoft', 'Micr\u043Es\u043Eft Account T\u0435am'],
      ['Cyrillic а leading apple', '\u0430pple ID: your account is locked'],
      ['Greek omicron in Google', 'G\u03BF\u03BFgle alert'],
      ['Greek Alpha in AMAZON', '\u0391MAZON order #123'],
      ['Cyrillic і in Chase bank', 'Chase Onl\u0456ne Banking'],
      ['Cyrillic р, а, у in a whole word beside Latin', '\u0440\u0430\u0443\u0440\u0430\u0456 Billing Department'],
      ['all-Cyrillic look-alike brand beside Latin words', 'Your \u0421\u041E\u0421\u0410 account'],
      ['zero-width space splitting a brand', 'Pay\u200BPal support'],
      ['zero-width joiner', 'Wells\u200DFargo'],
      ['right-to-left override file name', 'invoice\u202Efdp.exe'],
      ['left-to-right embedding', 'Bank \u202Anotice'],
      ['byte order mark', '\uFEFFIRS refund'],
      ['soft hyphen', 'Net\u00ADflix billing'],
      ['Armenian o in Coinbase', 'C\u0585inbase wallet'],
    ])('%s', (_case, text) => {
      expect(() => assertNotDisguised(text, 'subject')).toThrow(expect.objectContaining({ name: 'validation_error', statusCode: 422, message: expect.stringContaining('subject') }));
    });
  });

  describe('lets ordinary text in any script through', () => {
    it.each([
      ['English', 'Your order #1234 has shipped!'],
      ['accented Latin', 'Café Zoë: naïve crème brûlée for Müller'],
      ['Russian', 'Привет, ваш заказ отправлен'],
      ['Russian made of look-alike letters only', 'Ваш сор'],
      ['Ukrainian', 'Ваше замовлення їде до вас'],
      ['Greek', 'Η παραγγελία σας εστάλη'],
      ['Japanese (kanji, hiragana, katakana)', 'ご注文ありがとうございます。カートを確認'],
      ['Chinese', '您的订单已发货'],
      ['Korean', '주문이 발송되었습니다'],
      ['Arabic', 'تم شحن طلبك'],
      ['Hebrew', 'ההזמנה שלך נשלחה'],
      ['Hindi', 'आपका ऑर्डर भेज दिया गया है'],
      ['Latin and Cyrillic as separate words', 'Order / Заказ 42'],
      ['emoji and digits', '🎉 50% off – today only'],
    ])('%s', (_case, text) => {
      expect(() => assertNotDisguised(text, 'subject')).not.toThrow();
    });
  });
});
