import { templateLookup, type TemplateVariable } from './apply-template.ts';
import { missingVariables, render } from './render.ts';

/** What a preview renders: a saved template, or the fields of an editor not saved yet. */
export interface PreviewSource {
  readonly html: string;
  readonly text: string | null;
  readonly subject: string | null;
  readonly variables: readonly TemplateVariable[];
}

/** A template rendered for people to look at, and the variables shown as samples. */
export interface TemplatePreview {
  readonly subject: string | null;
  readonly html: string;
  readonly text: string | null;
  /** Variables with neither a declared nor an inline fallback: shown as `[NAME]`. */
  readonly samples: readonly string[];
}

/**
 * Renders a template the way a send would with no variables given (declared fallbacks, then
 * inline ones), through the same renderer; a variable a send would refuse for want of a value is
 * shown as `[NAME]` so the author sees where it goes.
 */
export const previewTemplate = (t: PreviewSource): TemplatePreview => {
  const fallbacks = templateLookup(t, {}, 'variables');
  const samples = missingVariables(fallbacks, t.html, t.text, t.subject);
  const sampled = new Set(samples);
  const lookup = (name: string) => (sampled.has(name) ? `[${name}]` : fallbacks(name));
  return {
    subject: t.subject === null ? null : render(t.subject, lookup, 'text'),
    html: render(t.html, lookup, 'html'),
    text: t.text === null ? null : render(t.text, lookup, 'text'),
    samples,
  };
};
