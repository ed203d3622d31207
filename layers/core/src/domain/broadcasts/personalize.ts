import type { Contact } from '../contacts/contact.ts';
import type { ContactProperty } from '../contacts/contact-property.ts';
import type { TemplateValue } from '../templates/render.ts';

const FIELDS: Record<string, (c: Contact) => string | null> = {
  FIRST_NAME: (c) => c.firstName,
  LAST_NAME: (c) => c.lastName,
  EMAIL: (c) => c.email,
  'contact.first_name': (c) => c.firstName,
  'contact.last_name': (c) => c.lastName,
  'contact.email': (c) => c.email,
};

/**
 * A broadcast recipient's placeholder values: contact fields (`{{{FIRST_NAME}}}`,
 * `{{{contact.first_name}}}`), contact properties by key (bare or `contact.<key>`, else the
 * property's fallback), then the broadcast's own variables. An empty field has no value, so the
 * inline fallback (`{{{FIRST_NAME|there}}}`) applies.
 */
export const recipientLookup =
  (
    contact: Contact,
    declared: ReadonlyMap<string, ContactProperty>,
    variables: Readonly<Record<string, TemplateValue>> | null,
  ) =>
  (name: string): TemplateValue | undefined => {
    const field = FIELDS[name];
    if (field) return field(contact) || undefined;
    const key = name.startsWith('contact.') ? name.slice('contact.'.length) : name;
    const own = contact.properties[key];
    if (own !== undefined && own !== '') return own;
    const fallback = declared.get(key)?.fallbackValue;
    if (fallback !== undefined && fallback !== null) return fallback;
    return variables?.[name];
  };

/** Whether a placeholder name can take a value for some recipient (a field, a declared property, a variable). */
export const knownPlaceholder = (
  name: string,
  declared: ReadonlyMap<string, ContactProperty>,
  variables: Readonly<Record<string, TemplateValue>> | null,
): boolean =>
  name in FIELDS ||
  declared.has(name.startsWith('contact.') ? name.slice('contact.'.length) : name) ||
  (variables !== null && name in variables);
