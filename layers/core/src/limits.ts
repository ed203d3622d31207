/**
 * The service's fixed limits and defaults, each stated once: the HTTP hosts, the domain, the
 * runtime configuration and the CDK stack read them from here.
 */

/** The largest request body accepted (spec §8: 25 MiB, attachments included). */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

/** The refusal text for a body past MAX_BODY_BYTES (both hosts answer with it). */
export const BODY_TOO_LARGE_MESSAGE = `The request body is larger than 25 MiB (${MAX_BODY_BYTES} bytes), attachments included.`;

/**
 * The largest answer a Lambda gives a synchronous invocation (6 MB), counted as its serialized
 * result (status, headers and body, a binary body base64): API Gateway answers 502 past it. The
 * local host holds the handlers' answers to it.
 */
export const LAMBDA_RESPONSE_MAX_BYTES = 6 * 1024 * 1024;

/**
 * The largest file a download link serves in its own answer (base64 makes it 4/3 larger, still
 * under LAMBDA_RESPONSE_MAX_BYTES); a larger one answers 302 to a link to the object in the
 * content store, working DOWNLOAD_REDIRECT_SECONDS.
 */
export const MAX_INLINE_DOWNLOAD_BYTES = 4 * 1024 * 1024;

/**
 * The bodies one answer carries at most (an email's html and text, a thread page's, counted as
 * they are encoded in a Lambda's result): the rest of the answer keeps 512 KiB. A body past it
 * answers null (the email itself is whole: sent, and forwarded or downloaded from its raw MIME).
 */
export const MAX_ANSWER_BODIES_BYTES = LAMBDA_RESPONSE_MAX_BYTES - 512 * 1024;

/** Seconds the content store link a large download redirects to works (each download signs a new one). */
export const DOWNLOAD_REDIRECT_SECONDS = 300;

/** At most this many recipients across to, cc and bcc (spec §8). */
export const MAX_RECIPIENTS = 50;

/** The provider's send rate when the deployment names none (SES's starting quota), per second. */
export const DEFAULT_PROVIDER_RATE_PER_SECOND = 14;

/** How long per-day counters (usage, deliverability) are kept after their day: 40 days. */
export const DAILY_COUNTER_RETENTION_SECONDS = 40 * 86_400;

/**
 * Email metrics (GET /emails/metrics): the hourly counters are kept 400 days, so a range reaches
 * at most 400 days back (a year by month, with room for the partial months at its ends). Hourly
 * periods cover at most 31 days: 744 rows, times the domains or broadcasts asked for, keep the
 * answer far under the 6 MB a Lambda can answer; any other granularity sums the same hours.
 */
export const METRICS_RETENTION_DAYS = 400;
export const METRICS_HOURLY_MAX_DAYS = 31;
/** At most this many ids in each of domain_id, email_id and broadcast_id (the reference's bound). */
export const METRICS_MAX_FILTER_IDS = 100;

/**
 * The longest path identifier (bytes, UTF-8): ids are UUIDs or addresses (at most 320
 * characters), so anything longer names nothing and answers 404 before the table is read.
 */
export const MAX_PATH_ID_BYTES = 320;

/** The longest signed link token in a path (preference and unsubscribe pages), in bytes. */
export const MAX_LINK_TOKEN_BYTES = 2048;

/** A string contact property value, and a property's `fallback_value`: at most this many characters. */
export const MAX_PROPERTY_STRING_LENGTH = 1000;

/**
 * Every number a request carries (a contact property value or `fallback_value`, an event's
 * payload, a template variable, a step's config): finite, at most this in magnitude, and either 0 or at least MIN_STORED_NUMBER.
 * The top is 2^53 - 1 (Number.MAX_SAFE_INTEGER): past it a JSON number is already rounded when
 * read, and DynamoDB's document client refuses to write it; DynamoDB itself stops at 1e-130.
 */
export const MAX_STORED_NUMBER = Number.MAX_SAFE_INTEGER;
export const MIN_STORED_NUMBER = 1e-100;

/** Bodies and attachments larger than this (bytes) are kept in the content store, not on the email's row. */
export const CONTENT_INLINE_MAX_BYTES = 32 * 1024;

/**
 * Days the content store keeps an email's bodies and attachments (the bucket's lifecycle expiry):
 * past the 30-day scheduling horizon with room for held review and send retries. Afterwards
 * GET /emails/{id} answers the email with `html`/`text` null.
 */
export const EMAIL_CONTENT_RETENTION_DAYS = 90;

/** How far ahead `scheduled_at` may name (spec §8): at most this many days. */
export const MAX_SCHEDULE_AHEAD_DAYS = 30;

/** The longest overlap (hours) a rotated webhook secret keeps signing for (spec §8 Webhooks). */
export const MAX_WEBHOOK_OVERLAP_HOURS = 72;

/** A team's name (dashboard and admin CLI): at most this many characters. */
export const MAX_TEAM_NAME_LENGTH = 100;

/** An API key's or a mailbox key's name (the dashboard names them): at most this many characters. */
export const MAX_KEY_NAME_LENGTH = 100;

/** Domains a team may create per rolling hour (spec §8, Creation), apart from the plan's domain count. */
export const DOMAIN_CREATIONS_PER_HOUR = 10;

/** A domain claim not proven by its TXT record within this long expires (the reference's 7 days). */
export const CLAIM_EXPIRY_MS = 7 * 86_400_000;
/** After a claim's TXT record is found, the holding team has this long (told by event and notice) before the domain moves. */
export const CLAIM_GRACE_PERIOD_MS = 72 * 3_600_000;
/** A claim waits while the holding team sent from the domain within this long. */
export const CLAIM_OWNER_ACTIVITY_MS = 24 * 3_600_000;

/** OAuth client registrations (RFC 7591) one address may make per quarter hour (spec §8, Creation). */
export const OAUTH_REGISTRATIONS_PER_QUARTER_HOUR = 10;

/** Seconds an OAuth authorization code works (single use). */
export const OAUTH_CODE_SECONDS = 300;

/** Mailboxes one OAuth grant's mail:* scopes may act in (chosen at consent). */
export const MAX_GRANT_MAILBOXES = 100;

/** Seconds a person has between the authorize redirect and the consent decision. */
export const OAUTH_CONSENT_SECONDS = 15 * 60;

/** Mailbox drafts (spec §8): recipients per draft, attachments and their size, the whole MIME message. */
export const MAILBOX_MAX_RECIPIENTS = 20;
export const MAILBOX_MAX_ATTACHMENTS = 10;
export const MAILBOX_MAX_ATTACHMENT_BYTES = 256 * 1024;
export const MAILBOX_MAX_MIME_BYTES = 1024 * 1024;
/** Items one mailbox agent listing returns (no cursor: `limited` says more exist). */
export const MAILBOX_LIST_LIMIT = 50;
/** The owner is told of drafts awaiting approval at most once per this many seconds per mailbox. */
export const MAILBOX_APPROVAL_NOTICE_SECONDS = 10 * 60;
/** A draft's subject and text (kept whole on its row). */
export const MAILBOX_MAX_SUBJECT_LENGTH = 998;
export const MAILBOX_MAX_TEXT_BYTES = 256 * 1024;
/** Days a mailbox's activity records are kept. */
export const MAILBOX_ACTIVITY_DAYS = 90;
/** The largest mailbox agent request body (a draft with its uploads, base64). */
export const MAILBOX_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** The largest inbound message a mailbox accepts (bytes of raw MIME); larger mail is refused at SMTP with 552. */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024;

/*
 * Fields kept whole on one table row (DynamoDB's item limit is 400 KB): each has a bound, checked
 * before storage, so a hostile request is a 422 naming the field, never a failed write. Taken
 * together, every one at its bound with 3-byte characters, an email's row stays near 320 KB.
 */

/**
 * A template's or a broadcast's `html`, and its `text`: each at most this many bytes (UTF-8).
 * They stay on their row (a broadcast's bodies are also rendered onto each recipient's email);
 * mail clients clip messages past about 100 KB. An email's own bodies are not bound by this: past
 * CONTENT_INLINE_MAX_BYTES they go to the content store, up to the body ceiling.
 */
export const MAX_STORED_BODY_BYTES = 100 * 1024;

/** A template's `variables` together (their JSON, fallback values included): at most this many bytes. */
export const MAX_TEMPLATE_VARIABLES_BYTES = 64 * 1024;

/**
 * A subject: at most this many characters (RFC 5322's line length), as given and as rendered
 * from a template. A broadcast's subject rendered for one recipient is cut to it (the broadcast is
 * already sending; a placeholder takes a property value of up to 1,000 characters).
 */
export const MAX_SUBJECT_LENGTH = 998;

/** Custom `headers` of an email: at most this many. */
export const MAX_CUSTOM_HEADERS = 20;

/** A custom header's name: at most this many characters. */
export const MAX_HEADER_NAME_LENGTH = 100;

/** A custom header's value: at most this many characters (RFC 5322's line length). */
export const MAX_HEADER_VALUE_LENGTH = 998;

/** `tags` of an email: at most this many. */
export const MAX_TAGS = 50;
/** The longest tag name or value (ASCII letters, digits, `_` and `-`), as in the reference. */
export const MAX_TAG_LENGTH = 256;

/** `reply_to` addresses of an email, template or broadcast: at most this many. */
export const MAX_REPLY_TO = 20;

/** `attachments` of an email: at most this many (their total size is capped per plan, spec §8). */
export const MAX_ATTACHMENTS = 50;

/** An attachment's `content_type`: at most this many characters. */
export const MAX_CONTENT_TYPE_LENGTH = 255;

/** A display name in an address (`Name <user@host>`): at most this many characters. */
export const MAX_DISPLAY_NAME_LENGTH = 100;

/** Contact properties a team may define (every contact's row holds a value for each). */
export const MAX_CONTACT_PROPERTIES = 50;

/**
 * A too-large upload (HTTP API and mailbox agent API alike): a client that declared up to this
 * many times the ceiling has the rest read and dropped before the connection closes, so it reads
 * the 413 instead of a cut write; a pause this long in its upload ends the wait.
 */
export const TOO_LARGE_DRAIN_FACTOR = 2;
export const TOO_LARGE_UPLOAD_IDLE_MS = 5_000;

/**
 * How long a process may answer from its cached copy of a team or sending domain row after that
 * row changed elsewhere (another Lambda, the admin CLI): a changed plan, a deleted or unverified
 * domain take effect everywhere within this. A change made in the same process (the local host,
 * one Lambda) takes effect at once. What must hold at once wherever it is made is also read
 * beside the request's count: the API key's row on every request (spec §5 rule 2: revocation)
 * and the team's row on every send (a suspension, a guardrail pause). Default of LOOKUP_CACHE_MS.
 */
export const LOOKUP_STALENESS_MS = 5_000;

/**
 * The most of a request's or a response's body a request log keeps (bytes of its JSON, UTF-8):
 * enough for every JSON request of the API but an email's large bodies; longer, the log keeps
 * `{ truncated: true, bytes, preview }` with this much of the JSON. Two of them fit one queue
 * message (SQS: 256 KiB) and one table item (DynamoDB: 400 KB) with room for the rest.
 */
export const LOG_BODY_MAX_BYTES = 16 * 1024;

/** Days a request log is kept before DynamoDB TTL purges it (what GET /logs can list). */
export const LOG_RETENTION_DAYS = 30;

/**
 * How long a request waits, after its answer is formed, for its log to be queued (ms): past it
 * the answer goes out and the log may be lost (request logs are best effort, mail never is).
 */
export const LOG_ENQUEUE_TIMEOUT_MS = 250;

/**
 * A custom event's name (events.create, events.send): at most this many characters. Names key the
 * automations they trigger and the runs waiting on them, so they stay short.
 */
export const MAX_EVENT_NAME_LENGTH = 100;

/** Fields of a custom event's `schema` (a flat name -> type map, kept on the definition's row). */
export const MAX_EVENT_SCHEMA_FIELDS = 50;

/**
 * A sent event's `payload`, as JSON: at most this many bytes. It is kept with the run it starts or
 * resumes and read by every step's `{var}` and condition, so it stays a small document.
 */
export const MAX_EVENT_PAYLOAD_BYTES = 16 * 1024;

/**
 * Steps of one automation (the reference's bound): the graph is one row and every step job reads
 * it, so it stays well under the item limit.
 */
export const MAX_AUTOMATION_STEPS = 150;

/**
 * The longest `delay` or `wait_for_event` timeout of a step: 365 days. A waiting run holds an
 * index item and a schedule until it resumes, so an unbounded wait would hold them forever.
 */
export const MAX_AUTOMATION_DELAY_DAYS = 365;

/**
 * Runs one contact may start in one automation: a sequence triggered by a noisy event (a page
 * view) would otherwise send its mail once per event; later events for a contact past this are
 * accepted and start nothing.
 */
export const MAX_RUNS_PER_CONTACT = 100;

/**
 * Steps one run may execute: a loop through a delay or a wait is allowed (a reminder every week
 * until an event comes), but not forever; the run that reaches this fails, naming the limit.
 */
export const MAX_RUN_STEPS = 1000;
