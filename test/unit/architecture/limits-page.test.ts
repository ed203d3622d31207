import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CONTENT_INLINE_MAX_BYTES,
  DOMAIN_CREATIONS_PER_HOUR,
  EMAIL_CONTENT_RETENTION_DAYS,
  MAX_ATTACHMENTS,
  MAX_BODY_BYTES,
  MAX_CONTACT_PROPERTIES,
  MAX_CONTENT_TYPE_LENGTH,
  MAX_CUSTOM_HEADERS,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_HEADER_NAME_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_LINK_TOKEN_BYTES,
  MAX_PATH_ID_BYTES,
  MAX_STORED_NUMBER,
  MAX_PROPERTY_STRING_LENGTH,
  MAX_REPLY_TO,
  MAX_SCHEDULE_AHEAD_DAYS,
  MAX_STORED_BODY_BYTES,
  MAX_SUBJECT_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MAX_TEMPLATE_VARIABLES_BYTES,
  MIN_STORED_NUMBER,
  TOO_LARGE_DRAIN_FACTOR,
} from '@mailstack/core/limits';
import { Pagination } from '@mailstack/core/schemas/common';
import { CreateTemplateRequest } from '@mailstack/core/schemas/templates';
import { fieldLimits } from '../../../functions/dashboard/view.ts';

const PAGE = readFileSync(resolve(import.meta.dirname, '../../../docs/limits.md'), 'utf8');
const KiB = 1024;
const MiB = 1024 * 1024;
/** A number as the page writes it (thousands separated by commas). */
const n = (x: number) => x.toLocaleString('en-US');

/**
 * What each row of the limits table says, written from the sources: every phrase must be in the
 * row's limit cell, and every number in that cell must come from one of them (or be one of the
 * row's `others`, numbers that are not the service's limits: RFC 5322, the AWS caps).
 */
const ROWS: Record<string, { says: string[]; others?: string[] }> = {
  'request body': {
    says: [`${MAX_BODY_BYTES / MiB} MiB`, `up to ${(MAX_BODY_BYTES * TOO_LARGE_DRAIN_FACTOR) / MiB} MiB`],
    others: ['6 MB', 'the 413'],
  },
  'body JSON type': { says: [] },
  'path ids': { says: [`at most ${MAX_PATH_ID_BYTES} bytes`, `link tokens ${n(MAX_LINK_TOKEN_BYTES)} bytes`] },
  'list routes': {
    says: [`\`limit\` ${fieldLimits(Pagination, 'limit').min} to ${fieldLimits(Pagination, 'limit').max}`],
  },
  '`scheduled_at`': { says: [`at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`], others: ['2025-02-30T10:00:00Z'] },
  'contact property values, `fallback_value`': {
    says: [
      `strings up to ${n(MAX_PROPERTY_STRING_LENGTH)} characters`,
      `magnitude at most ${n(MAX_STORED_NUMBER)}`,
      `0 or at least ${MIN_STORED_NUMBER.toExponential()}`,
    ],
    others: ['2^53 − 1'],
  },
  "numbers anywhere in a body (an event's `payload`, a step's `config`, `template.variables`, a revision)": {
    says: [`0, or magnitude ${MIN_STORED_NUMBER.toExponential()} to ${n(MAX_STORED_NUMBER)}`],
    others: ['2^53 − 1', '`1e400`', '400 `invalid_request`'],
  },
  'template and broadcast `html`, `text`': {
    says: [
      `at most ${MAX_STORED_BODY_BYTES / KiB} KiB (${n(MAX_STORED_BODY_BYTES)} bytes, UTF-8)`,
      `past ${CONTENT_INLINE_MAX_BYTES / KiB} KiB`,
    ],
  },
  'template `variables`; `template.variables` of a send or broadcast': {
    says: [
      `at most ${fieldLimits(CreateTemplateRequest, 'variables').maxlength} declared`,
      `${MAX_TEMPLATE_VARIABLES_BYTES / KiB} KiB of JSON`,
    ],
  },
  '`subject`': {
    says: [`at most ${MAX_SUBJECT_LENGTH} characters`, `cut to ${MAX_SUBJECT_LENGTH}`],
    others: ['RFC 5322'],
  },
  'email `headers`': {
    says: [
      `at most ${MAX_CUSTOM_HEADERS} custom headers`,
      `names at most ${MAX_HEADER_NAME_LENGTH} characters`,
      `values at most ${MAX_HEADER_VALUE_LENGTH}`,
    ],
    others: ['RFC 5322'],
  },
  'email `tags`': { says: [`at most ${MAX_TAGS}`, `at most ${MAX_TAG_LENGTH} characters each`] },
  '`reply_to`': { says: [`at most ${MAX_REPLY_TO} addresses`] },
  'email `attachments`': {
    says: [`at most ${MAX_ATTACHMENTS} files`, `\`content_type\` at most ${MAX_CONTENT_TYPE_LENGTH} characters`],
    others: ['spec §8'],
  },
  'display names (`Name <user@host>` in `from`, `to`, `cc`, `bcc`, `reply_to`)': {
    says: [`at most ${MAX_DISPLAY_NAME_LENGTH} characters`],
  },
  'contact properties': { says: [`at most ${MAX_CONTACT_PROPERTIES} defined per team`] },
  'sender domains, contacts': { says: [], others: ['spec §8', '20 concurrent creates'] },
  'domain creations': { says: [`${DOMAIN_CREATIONS_PER_HOUR} per team and hour`] },
};

/** The table's rows: the input cell and the limit cell. */
const tableRows = (): [string, string][] =>
  PAGE.split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| input ') && !l.startsWith('| ---'))
    .map((l) => {
      const cells = l
        .slice(1, -1)
        .split(/\s\|\s/)
        .map((c) => c.trim());
      return [cells[0]!, cells[1]!];
    });

/** The numbers a text states (1,000 and 1e-100 each one number). */
const numbers = (text: string) => text.match(/\d[\d,]*(?:\.\d+)?(?:e-?\d+)?/g)?.map((x) => x.replace(/,$/, '')) ?? [];

/**
 * docs/limits.md states the service's limits as numbers: each is checked against
 * `layers/core/src/limits.ts` and the request schemas, so the page cannot drift from the code.
 */
describe('the limits page', () => {
  it('lists every row this test knows, and no other', () => {
    expect(tableRows().map(([input]) => input)).toEqual(Object.keys(ROWS));
  });

  it.each(tableRows())('%s: every number stated is the one in the code', (input, limit) => {
    const row = ROWS[input]!;
    for (const phrase of row.says) expect(limit, input).toContain(phrase);
    const accounted = [...row.says, ...(row.others ?? [])].flatMap(numbers);
    for (const x of numbers(limit)) expect(accounted, `${input}: the page states ${x}`).toContain(x);
  });

  it('states the content store threshold and retention from the code', () => {
    expect(PAGE).toContain(`larger than\n${CONTENT_INLINE_MAX_BYTES / KiB} KiB (\`CONTENT_INLINE_MAX_BYTES\`)`);
    expect(PAGE).toContain(`after ${EMAIL_CONTENT_RETENTION_DAYS} days, \`EMAIL_CONTENT_RETENTION_DAYS\``);
    expect(PAGE).toContain(`Emails up to the ${MAX_BODY_BYTES / MiB} MiB`);
    expect(PAGE).toContain(
      `up to ${n(MAX_PROPERTY_STRING_LENGTH)} characters, so a rendered body past ${MAX_STORED_BODY_BYTES / KiB} KiB`,
    );
  });
});
