import { describe, expect, it } from 'vitest';
import {
  memoryInboundRecipients,
  RECEIPT_RULE_RECIPIENTS_MAX,
  ruleFor,
  ruleTakes,
} from '@mailstack/core/ports/inbound-recipients';

describe('the inbound receipt rule named for the held domains', () => {
  it('names the held domains once each, lower-cased and sorted', () => {
    expect(ruleFor(['b.example.com', 'A.example.com', 'b.example.com'])).toEqual({
      enabled: true,
      recipients: ['a.example.com', 'b.example.com'],
      outcome: 'named',
    });
  });

  it('turns the rule off when no domain is held (a rule naming none would take every verified domain)', () => {
    expect(ruleFor([])).toEqual({ enabled: false, recipients: [], outcome: 'off' });
    expect(ruleTakes(ruleFor([]), 'someone@other.example.com')).toBe(false);
  });

  it('past the cap of one rule, names none and says so', () => {
    const many = Array.from({ length: RECEIPT_RULE_RECIPIENTS_MAX + 1 }, (_, i) => `d${i}.example.com`);
    expect(ruleFor(many)).toMatchObject({ enabled: true, recipients: [], outcome: 'over-cap' });
    expect(ruleFor(many.slice(1)).outcome).toBe('named');
  });

  it('takes mail for a named domain, not for another domain or a subdomain', () => {
    const rule = ruleFor(['held.example.com']);
    expect(ruleTakes(rule, 'Support@Held.example.com')).toBe(true);
    expect(ruleTakes(rule, 'support@other.example.com')).toBe(false);
    expect(ruleTakes(rule, 'support@sub.held.example.com')).toBe(false);
  });

  it('the stand-in records what it is told: a domain deleted is no longer named', async () => {
    const rule = memoryInboundRecipients();
    expect(await rule.sync(['held.example.com', 'gone.example.com'])).toBe('named');
    expect(await rule.sync(['held.example.com'])).toBe('named');
    expect(await rule.current()).toEqual({ enabled: true, recipients: ['held.example.com'] });
  });
});
