import { describe, expect, it } from 'vitest';
import { missingVariables, placeholderNames, render } from '@mailstack/core/domain/templates/render';

const values = (v: Record<string, string | number>) => (name: string) => v[name];

describe('the template renderer', () => {
  it('escapes values in html and leaves them raw in text', () => {
    const lookup = values({ NAME: '<b>Tom & "Jerry"</b>' });
    expect(render('<p>Hi {{{NAME}}}</p>', lookup, 'html')).toBe(
      '<p>Hi &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;</p>',
    );
    expect(render('Hi {{{NAME}}}', lookup, 'text')).toBe('Hi <b>Tom & "Jerry"</b>');
  });

  it('takes double braces, spaces and numbers', () => {
    expect(render('{{ COUNT }} items, {{{ COUNT }}} again', values({ COUNT: 3 }), 'text')).toBe('3 items, 3 again');
  });

  it("uses an inline fallback when no value is given, without escaping the author's own html", () => {
    expect(render('Hi {{{FIRST_NAME|there}}}', values({}), 'text')).toBe('Hi there');
    expect(render('Hi {{{FIRST_NAME|<i>friend</i>}}}', values({}), 'html')).toBe('Hi <i>friend</i>');
    expect(render('Hi {{{FIRST_NAME|there}}}', values({ FIRST_NAME: 'Ann' }), 'text')).toBe('Hi Ann');
  });

  it('reads dotted names such as contact.first_name', () => {
    expect(render('{{{contact.first_name}}}', values({ 'contact.first_name': 'Ann' }), 'text')).toBe('Ann');
  });

  it('leaves the unsubscribe placeholders for the send pipeline', () => {
    expect(render('<a href="{{{UNSUBSCRIBE_URL}}}">x</a> {{{RESEND_UNSUBSCRIBE_URL}}}', values({}), 'html')).toBe(
      '<a href="{{{UNSUBSCRIBE_URL}}}">x</a> {{{RESEND_UNSUBSCRIBE_URL}}}',
    );
  });

  it('names the variables with neither a value nor a fallback, once each, in order', () => {
    const lookup = values({ A: 'x' });
    expect(missingVariables(lookup, '{{{A}}} {{{B}}} {{{C|c}}}', 'text {{{D}}} {{{B}}} {{{UNSUBSCRIBE_URL}}}')).toEqual(
      ['B', 'D'],
    );
    expect(placeholderNames('{{{A}}} {{{B|x}}}', null, '{{{UNSUBSCRIBE_URL}}}')).toEqual(['A', 'B']);
  });
});
