import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';

const Addresses = v.array(v.string());

/** An attachment's metadata as a received email embeds it. */
export const InboundAttachment = v.object({
  id: Id,
  filename: v.nullable(v.string()),
  size: v.number(),
  content_type: v.string(),
  content_id: v.nullable(v.string()),
  content_disposition: v.nullable(v.string()),
});

/** A received email as lists show it (no bodies, headers or raw link). */
export const ReceivedEmailRow = v.object({
  id: Id,
  to: Addresses,
  from: v.string(),
  created_at: Timestamp,
  subject: v.string(),
  bcc: v.nullable(Addresses),
  cc: v.nullable(Addresses),
  reply_to: v.nullable(Addresses),
  received_for: Addresses,
  message_id: v.string(),
  attachments: v.array(InboundAttachment),
});

/** A signed, expiring download link. */
const DownloadLink = { download_url: v.pipe(v.string(), v.url()), expires_at: Timestamp };

/** GET /emails/receiving/{id} */
export const ReceivedEmailObject = v.object({
  object: v.literal('email'),
  ...ReceivedEmailRow.entries,
  html: v.nullable(v.string()),
  text: v.nullable(v.string()),
  headers: v.nullable(v.record(v.string(), v.string())),
  raw: v.nullable(v.object(DownloadLink)),
});

/** GET /emails/receiving/{id}?html_format= */
export const ReceivedEmailQuery = v.object({
  html_format: v.optional(
    v.picklist(
      ['data_uri', 'cid'],
      'must be `data_uri` (inline images as data URIs, the default) or `cid` (keep the cid: references).',
    ),
  ),
});

/** An attachment of a received email with its download link (list rows). */
export const ReceivedAttachmentRow = v.object({
  id: Id,
  filename: v.nullable(v.string()),
  size: v.number(),
  content_type: v.string(),
  content_id: v.optional(v.string()),
  content_disposition: v.picklist(['inline', 'attachment']),
  ...DownloadLink,
});

/** GET /emails/receiving/{id}/attachments/{attachment_id} */
export const ReceivedAttachmentObject = v.object({ object: v.literal('attachment'), ...ReceivedAttachmentRow.entries });
