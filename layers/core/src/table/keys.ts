/**
 * The key design: every key string of the table is built here and nowhere else.
 *
 * Generic attributes: pk/sk, gsi1pk/gsi1sk, gsi2pk/gsi2sk, gsi3pk/gsi3sk, `type` (entity name)
 * and `ttl` (epoch seconds). The team id is the first segment of every tenant key, so a
 * lookup with another team's id can only miss: tenancy is structural.
 *
 * Ids are UUIDv7, so sort keys that end in an id sort by creation time; lists read newest first
 * with ScanIndexForward=false and an `after`/`before` cursor is a key position.
 *
 * Access patterns (pattern: key or index):
 *
 * | pattern                              | key / index                                                      |
 * |--------------------------------------|------------------------------------------------------------------|
 * | key hash -> key record               | pk APIKEY#<sha256>, sk APIKEY                                   |
 * | keys of a team                       | gsi1: TEAM#<t>#APIKEYS / <keyId>                                 |
 * | team -> plan, status                 | pk TEAM#<t>, sk TEAM                                             |
 * | all teams (admin)                    | gsi1: TEAMS / <teamId>                                           |
 * | domain by id                         | pk TEAM#<t>, sk DOMAIN#<id>                                      |
 * | domains of a team, newest first      | pk TEAM#<t>, sk begins DOMAIN#                                   |
 * | domain by name (per team, unique)    | pk TEAM#<t>, sk DOMAINNAME#<name> (guard item, holds the id)     |
 * | team holding a domain name (global)  | pk DOMAINCLAIM#<name>, sk CLAIM (guard: one team per name)       |
 * | a team's claim of a domain (latest)  | pk TEAM#<t>, sk CLAIMOF#<placeholder domain id>                  |
 * | domain names the teams hold          | gsi2 (sparse): DOMAINS#HELD / <name> (on each name's claim)      |
 * | request window per team (+ per key)  | pk TEAM#<t>#RATE#<minute>#<shard>, sk RATE (ttl; shards by limit)|
 * | failed auth per IP                   | pk AUTHFAIL#<ip>#<minute>, sk AUTHFAIL (ttl)                     |
 * | MCP calls per person and minute      | pk USER#<u>#MCPRATE#<minute>, sk RATE (ttl)                      |
 * | domain creations per hour            | pk TEAM#<t>#DOMAINRATE#<hour>, sk RATE (ttl)                     |
 * | domains of a team, counted (plan cap) | pk TEAM#<t>#DOMAINS, sk COUNT (written with each create/delete)  |
 * | usage counters per team and day      | pk TEAM#<t>#USAGE#<yyyy-mm-dd>#<shard 0-7>, sk USAGE (ttl)       |
 * | usage counters per team and month    | pk TEAM#<t>#USAGE#<yyyy-mm>#<shard 0-7>, sk USAGE (summed)       |
 * | email by id                          | pk TEAM#<t>#EMAIL#<id>, sk EMAIL (one partition per email)       |
 * | bodies of an email, apart from its   | pk TEAM#<t>#EMAIL#<id>, sk EMAIL#BODY (written once, at accept:  |
 * |   row (row past 1 KB with them)      |   the row's status changes then bill one write unit)             |
 * | attachment chunk of an email         | pk TEAM#<t>#EMAIL#<id>, sk ATTACH#<n, 4 digits>                  |
 * | emails of a team, newest first       | gsi1: TEAM#<t>#EMAILS#<shard 0-31> / <id> (merge the 32 shards)  |
 * | emails due at the provider (queued,  | gsi3 (sparse): DUE#SEND#<shard 0-31> / <due ISO time>#<id>       |
 * |   scheduled, sending), by due time   |   (due: accepted, scheduled_at or released; the sweeper reads    |
 * |                                      |   only what is past due)                                         |
 * | parked emails, by release time       | gsi3 (sparse): DUE#PARKED#<shard 0-31> / <release ISO time>#<id> |
 * | held emails of a team                | gsi2 (sparse): TEAM#<t>#HELD / <id>                              |
 * | erase jobs still running             | pk ERASEJOBS, sk <job id>; job: pk TEAM#<t>#ERASE, sk <job id>   |
 * | tracked clicks of an email, by time  | pk TEAM#<t>#EMAIL#<id>, sk CLICK#<epoch ms, 15 digits>#<clickId> |
 * | event records of a team (sharded)    | pk TEAM#<t>#EVENTS#<shard 0-31>, sk EVENT#<id>                   |
 * | events not yet fanned out, by time   | gsi3 (sparse): DUE#EVENT#<shard 0-15> / <created ISO>#<t>#<id>   |
 * | suppression by address (batch get)   | pk TEAM#<t>#SUPP, sk ADDR#<lower-cased address>                  |
 * | suppressions of a team, newest first | gsi1: TEAM#<t>#SUPPRESSIONS / <id> (also: suppression by id)     |
 * | contact by id                        | pk TEAM#<t>#CONTACTS, sk CONTACT#<id>                            |
 * | contact by email (unique per team)   | pk TEAM#<t>#CONTACTS, sk EMAIL#<lower-cased address> (guard)     |
 * | topic by id, topics of a team        | pk TEAM#<t>, sk TOPIC#<id>                                       |
 * | a contact's explicit topic choice    | pk TEAM#<t>#CONTACTS, sk CHOICE#<contactId>#<topicId>            |
 * | contacts of a team, newest first     | pk TEAM#<t>#CONTACTS, sk begins CONTACT#                         |
 * | contact count of a team (plan caps)  | pk TEAM#<t>#CONTACTS, sk COUNT                                   |
 * | contacts of a segment                | pk TEAM#<t>#CONTACTS, sk begins MEMBER#<segmentId>#              |
 * | segment by id, segments of a team    | pk TEAM#<t>, sk SEGMENT#<id>                                     |
 * | contact property by id / by key      | pk TEAM#<t>, sk PROP#<id> / PROPKEY#<key> (guard)                |
 * | contact property count               | pk TEAM#<t>, sk PROPCOUNT                                        |
 * | idempotency record (Powertools)      | pk TEAM#<t>#IDEMPOTENCY#<key's shard 0-15>, sk <hashed key> (ttl 24 h) |
 * | deliverability counts per team & day | pk TEAM#<t>#DELIV#<yyyy-mm-dd>#<shard 0-7>, sk DELIV (ttl 40 days) |
 * | the same per delivery region & day   | pk REGION#<region>#DELIV#<yyyy-mm-dd>#<shard 0-7>, sk DELIV (ttl) |
 * | email metrics per team, UTC hour,    | pk TEAM#<t>#METRICS#<yyyy-mm>#<shard 0-15>, sk HOUR#<yyyy-mm-ddThh>#D#<domain |
 * |   domain or broadcast, and shard     |   id or -> / ...#B#<broadcast id> (a range of hours is one      |
 * |                                      |   query per month and shard, summed; ttl 400 days)              |
 * | provider send line per region & rate | pk PACE#<region>, sk PLACES#<rate> (next: the next free place)  |
 * | provider call log per region & rate | pk PACE#<region>#CALLS#<rate>, sk PACE (calls, seq)             |
 * | the same, shard i of n (rate > 100)  | pk PACE#<region>#LINE#<i>/<n>, sk PLACES#<rate>;                 |
 * |                                      |   pk PACE#<region>#CALLS#<rate>#<i>/<n>, sk PACE                 |
 * | request logs of a team, newest first | pk TEAM#<t>#LOGS#<shard 0-7>, sk LOG#<id> (ttl; shards merged)   |
 * | webhook endpoint by id, of a team    | pk TEAM#<t>, sk WEBHOOK#<id>                                     |
 * | deliveries of an endpoint (log)      | pk TEAM#<t>#WEBHOOK#<w>#SHARD#<shard of eventId>, sk             |
 * |                                      |   DELIVERY#<eventId> (ttl retention; lists merge the shards)     |
 * | attempts of one delivery             | pk as its delivery's, sk ATTEMPT#<eventId>#<attemptId> (ttl)     |
 * | requests in flight to an endpoint    | pk WHFLIGHT#<w>#SLOT#<0-7>, sk FLIGHT (holder, lease end)        |
 * | requests to an endpoint per second   | pk WHRATE#<w>#<epoch second>#SHARD#<shard>, sk RATE (ttl)        |
 * | broadcast sends per second & region  | pk PACE#<region>#BCAST#<epoch second>#<shard>, sk PACE (ttl)     |
 * | template by id, templates of a team  | pk TEAM#<t>, sk TEMPLATE#<id>                                    |
 * | template by alias (unique per team)  | pk TEAM#<t>, sk TEMPLATEALIAS#<alias> (guard, holds the id)      |
 * | broadcast by id, broadcasts of a team| pk TEAM#<t>, sk BROADCAST#<id>                                   |
 * | broadcast fan-out checkpoint         | pk TEAM#<t>#BCAST#<id>, sk CHECKPOINT                            |
 * | broadcast recipient outcome          | pk TEAM#<t>#BCAST#<id>, sk RCPT#<contactId> (skips and sends)    |
 * | broadcast send counts (sharded)      | pk TEAM#<t>#BCAST#<id>, sk COUNT#<shard 00-31>                   |
 * | broadcast link clicks                | pk TEAM#<t>#BCAST#<id>, sk LINK#<linkId>                         |
 * | a recipient's clicks on a link       | pk TEAM#<t>#BCAST#<id>, sk RLINK#<contactId>#<linkId>            |
 * | broadcasts holding a region's pacer  | pk BCASTLANE#<region>, sk <broadcastId> (while sending)          |
 * | operator pause of broadcasts         | pk BCASTPAUSE, sk TEAM#<t> / REGION#<region>                     |
 * | local schedule by name               | pk SCHEDULE#<name>, sk SCHEDULE                                  |
 * | local schedules due (timer loop)     | pk SCHEDULES, sk <firing instant, 15 digits>#<name>              |
 * | user by id (dashboard person)        | pk USER#<u>, sk USER (holds team_count: the teams-per-user cap)  |
 * | user by email (unique)               | pk USEREMAIL#<lower-cased address>, sk USEREMAIL (guard, the id) |
 * | members of a team (with role)        | pk TEAM#<t>, sk MEMBER#<u>                                       |
 * | teams of a user                      | gsi1: USER#<u>#TEAMS / <teamId> (on the member item)             |
 * | pending invitations of a team        | pk TEAM#<t>, sk INVITE#<id>                                      |
 * | one-time token (sign-in link, reset, | pk ONETIME#<sha256 of the token>, sk ONETIME (ttl; deleted on    |
 * |   invitation) by its hash            |   use with a condition, so it works once)                        |
 * | dashboard session by its hash        | pk SESSION#<sha256 of the id>, sk SESSION (ttl)                  |
 * | failed sign-ins per address          | pk SIGNINFAIL#<lower-cased address>#<quarter hour>, sk FAIL (ttl) |
 * | emailed sign-in links asked for       | pk SIGNINLINK#<lower-cased address or source ip>#<quarter hour>, sk ADDRESS or SOURCE (ttl) |
 * | audit entries of a team, newest first| pk TEAM#<t>#AUDIT, sk <id>                                       |
 * | the system team (platform mail)      | pk SYSTEM, sk TEAM (holds the team id)                           |
 * | OAuth client (RFC 7591 registration) | pk OAUTHCLIENT#<clientId>, sk CLIENT                             |
 * | OAuth registrations per address      | pk OAUTHREG#<address>#<quarter hour>, sk RATE (ttl)              |
 * | pending authorization (before consent)| pk OAUTHREQ#<sha256 of the request id>, sk REQUEST (ttl)        |
 * | authorization code by its hash       | pk OAUTHCODE#<sha256 of the code>, sk CODE (ttl; used once)      |
 * | OAuth access token by its hash       | pk OAUTHTOKEN#<sha256 of the token>, sk ACCESS (ttl)             |
 * | OAuth refresh token by its hash      | pk OAUTHTOKEN#<sha256 of the token>, sk REFRESH (ttl; rotated)   |
 * | OAuth grant by id, grants of a team  | pk TEAM#<t>, sk OAUTHGRANT#<grantId>                             |
 * | mailbox by id, mailboxes of a team   | pk TEAM#<t>, sk MAILBOX#<id>                                     |
 * | mailbox by address (global: inbound  | pk MAILBOXADDR#<lower-cased address>, sk MAILBOXADDR (guard,     |
 * |   routing; one team per address)     |   holds team and mailbox id)                                     |
 * | received/sent message by id          | pk TEAM#<t>#MSG#<id>, sk MSG (raw MIME in the content store)     |
 * | messages of a mailbox by folder,     | gsi1: TEAM#<t>#MBOX#<m>#MSGS#<folder> / <id>                     |
 * |   newest first                       |   (folders: inbox, sent, archive, spam, trash)                   |
 * | received messages of a team (GET     | gsi2 (sparse): TEAM#<t>#RECEIVED / <id>                          |
 * |   /emails/receiving), newest first   |                                                                  |
 * | messages of a thread, oldest first   | gsi3: TEAM#<t>#THREAD#<thread> / <id> (display: eventually       |
 * |   (list, search)                     |   consistent, may miss a message of the last moment)             |
 * | every message of a thread, read      | pk TEAM#<t>#MBOX#<m>#THREAD#<thread>, sk MSG#<id> (holds the     |
 * |   consistently (remove, move)        |   message id; written in the message's own transaction)          |
 * | thread by id                         | pk TEAM#<t>#MBOX#<m>, sk THREAD#<thread>                         |
 * | threads of a mailbox by folder,      | gsi1: TEAM#<t>#MBOX#<m>#THREADS#<folder> / <last ISO>#<thread>   |
 * |   latest activity first              |   (moved on each message; folder lives on the thread)            |
 * | thread of a Message-ID in a mailbox  | pk TEAM#<t>#MBOX#<m>, sk MSGID#<sha256 of the Message-ID>        |
 * |   (threading, duplicate deliveries)  |   (holds thread and message id)                                  |
 * | mailbox key by its hash (mmb_)       | pk MAILBOXKEY#<sha256>, sk MAILBOXKEY                            |
 * | keys of a mailbox                    | gsi1: TEAM#<t>#MBOX#<m>#KEYS / <keyId>                           |
 * | drafts / labels of a mailbox         | pk TEAM#<t>#MBOX#<m>, sk DRAFT#<id> / LABEL#<id>                 |
 * | a mailbox's label by name (unique)   | pk TEAM#<t>#MBOX#<m>, sk LABELNAME#<lower-cased name> (guard)    |
 * | a mailbox's agent settings           | pk TEAM#<t>#MBOX#<m>, sk AGENT                                   |
 * | a mailbox's allowance use, activity, | pk TEAM#<t>#MBOX#<m>, sk ALLOWANCE#<period start> /              |
 * |   last approval notice               |   ACTIVITY#<id> / APPROVALNOTICE                                 |
 * | a team's mailbox license, storage    | pk TEAM#<t>, sk MAILBOXLICENSE / MAILBOXSTORAGE                  |
 * | mailbox sending switch (operator)    | pk OPERATOR, sk MAILBOXTRANSPORT#<team id or *>                  |
 * | shared link of an email by its hash  | pk EMAILSHARE#<sha256 of the token>, sk SHARE (ttl: its expiry)  |
 * | shared links of one email            | gsi1: TEAM#<t>#SHARES#<email id> / <share id>                    |
 * | inbound mail dropped (no mailbox)    | pk INBOUND#DROPPED, sk DAY#<yyyy-mm-dd> (count, last, ttl)       |
 * | custom event definition by id, of a  | pk TEAM#<t>, sk EVENTDEF#<id>                                    |
 * |   team; by name (unique per team)    | pk TEAM#<t>, sk EVENTNAME#<name> (guard, holds the id)           |
 * | automation by id, automations of a   | pk TEAM#<t>, sk AUTOMATION#<id>                                  |
 * |   team; a saved graph (runs read the | pk TEAM#<t>#AUTO#<a>, sk VERSION#<versionId> (edits make a new  |
 * |   version they started on)           |   version: running runs keep theirs)                            |
 * | enabled automations of an event name | pk TEAM#<t>#TRIGGER#<event name>, sk <automationId>              |
 * | runs of an automation, newest first  | pk TEAM#<t>#AUTO#<a>, sk RUN#<runId>                             |
 * | one run per (automation, contact,    | pk TEAM#<t>#AUTO#<a>, sk START#<eventId>#<contactId> (guard)     |
 * |   triggering event); runs counted    |   / RUNCOUNT#<contactId> (runs per contact)                      |
 * | a run's executed steps, in order     | pk TEAM#<t>#RUN#<r>, sk STEP#<n, 4 digits>                       |
 * | step outcomes of an automation       | pk TEAM#<t>#AUTO#<a>, sk STEPCOUNT#<step key> (counts by status) |
 * | runs waiting for an event, by contact| pk TEAM#<t>#WAIT#<contactId>#<event name>, sk <runId>#<n>        |
 * | custom events a contact sent, by name| pk TEAM#<t>#SENTEVENTS#<contactId>#<name>, sk <at ISO>#<id> (ttl)|
 * |   (a wait hears those since it began)|                                                                  |
 */

import type { IndexName } from './definition.ts';

const team = (teamId: string): string => `TEAM#${teamId}`;

/** Whose counts an email metrics hour item holds: a domain's (null: mail of no domain) or a broadcast's. */
export interface MetricsOwner {
  readonly kind: 'domain' | 'broadcast';
  readonly id: string | null;
}

/**
 * A named access pattern over a GSI: the index and the partition a query reads. Each is built
 * beside the writer of the index attributes it reads (`listing`, `held`, `sendDue`, ...), and
 * `test/unit/table/access-patterns.test.ts` pins every pair, so a query cannot pick another index
 * than its rows are written to.
 */
export interface IndexPartition {
  readonly index: IndexName;
  readonly pk: string;
}
const onIndex = (index: IndexName, pk: string): IndexPartition => ({ index, pk });

/** Shard counts: how many partitions a hot collection is spread over (the one place they are set). */
// An email writes about 7.5 units to its listing shard and 6.5 to its due shard over its life (the
// index entry is rewritten with the row): at 2,000 sends a second, 32 shards take about 470 and 410
// WCU/s each, with room for the hash's unevenness (16 would take 940 on average, past 1,000 for the
// busiest). Raised from 4: the readers query shards 0..n-1, so entries written under fewer are read.
const EMAIL_LIST_SHARDS = 32;
const EMAIL_DUE_SHARDS = 32;
/**
 * Event records: an email makes ~4-5 events (sent, delivered, opened, clicked, ...), each row
 * ~1-2 KB written once and updated once when fanned out: ~10-15 WCU per email. At 2,000 sends a
 * second of one team over 32 partitions: ≤ ~950 WCU/s each, ≤ 0.5 WCU per send. Readers (the
 * timeline, an erase) query every shard. The undispatched index (gsi3, every team's events) gets
 * the row on write and loses it on fan-out, ~2 index writes per event: over 16 shards ≤ ~0.6 WCU
 * per send each, the sweeper querying 16 shards a minute.
 */
const EVENT_SHARDS = 32;
const EVENT_DUE_SHARDS = 16;
/**
 * Email metrics: an email moves up to ~8 hour items in its life (sent, delivered, opened, clicked,
 * ... on its domain's item, and as many on its broadcast's), 1 WCU each. At 2,000 sends a second
 * of one team that is ~16,000 WCU/s; over 16 month partitions ~1,000 at worst and ~500 as mail
 * usually goes (≤ 0.5 WCU per send per partition): 2,000 sends/s. GET /metrics reads 16 queries a month.
 */
const METRICS_SHARDS = 16;
/**
 * Deliverability counts: an email writes its team's day item about once (`sent`, 1 WCU; a bounce or
 * complaint, ~5% of mail, 2 WCU in its transaction) and its region's once: ~1.1 WCU per send. Over
 * 8 partitions ≈ 0.14 WCU per send per partition: ~7,000 sends/s of one team or one region. The
 * guardrail reads 7 days × 8 items (one BatchGet) per bounce or complaint.
 */
const DELIVERABILITY_SHARDS = 8;
/**
 * Usage counters: an API send writes one day shard (daily plans), or one month shard and one day
 * shard (monthly plans), 1 WCU each, and an automation run one of each; a batch writes once for
 * its 100 emails. At 2,000 single sends a second over 8 shards: 250 WCU/s per partition (0.125 per
 * send): 8,000 sends/s. A segment's end rebalances (8 consistent reads, an 8-item transaction).
 */
const USAGE_SHARDS = 8;

/**
 * Request logs: every API request writes one row (a send's row holds its request and answer
 * bodies, compressed past a few KB: ~1-3 WCU). At 2,000 requests a second of one team over 8
 * shards: ≤ ~750 WCU/s per partition, ~0.4 WCU per send: 2,000+ sends/s (more with batches).
 * GET /logs reads one query per shard.
 */
const REQUEST_LOG_SHARDS = 8;
/** Idempotency records: see `keys.idempotency.partition`. */
const IDEMPOTENCY_SHARDS = 16;

/** A stable shard number of any string (FNV-1a), for keys chosen by callers rather than ids. */
export const hashShard = (value: string, shards: number): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
};
const WEBHOOK_LOG_SHARDS = 32;
const WEBHOOK_RATE_SHARDS = 4;

/** A stable shard number of an id (its last hex digits), for spreading hot collections. */
export const shardOf = (id: string, shards: number): number => parseInt(id.slice(-4), 16) % shards;

const webhookLog = (teamId: string, webhookId: string, shard: number) =>
  `${team(teamId)}#WEBHOOK#${webhookId}#SHARD#${shard}`;

/** Key builders, grouped by entity. Each returns the exact strings stored. */
export const keys = {
  team: {
    item: (teamId: string) => ({ pk: team(teamId), sk: 'TEAM' }),
    listing: (teamId: string) => ({ gsi1pk: 'TEAMS', gsi1sk: teamId }),
    listPartition: () => onIndex('gsi1', 'TEAMS'),
  },
  apiKey: {
    item: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
    listing: (teamId: string, keyId: string) => ({ gsi1pk: `${team(teamId)}#APIKEYS`, gsi1sk: keyId }),
    listPartition: (teamId: string) => onIndex('gsi1', `${team(teamId)}#APIKEYS`),
  },
  domain: {
    item: (teamId: string, domainId: string) => ({ pk: team(teamId), sk: `DOMAIN#${domainId}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'DOMAIN#',
    nameGuard: (teamId: string, name: string) => ({ pk: team(teamId), sk: `DOMAINNAME#${name.toLowerCase()}` }),
    creationWindow: (teamId: string, hour: number) => ({ pk: `${team(teamId)}#DOMAINRATE#${hour}`, sk: 'RATE' }),
    /** Across all teams: which team holds a domain name (provider identities are account-wide). */
    claim: (name: string) => ({ pk: `DOMAINCLAIM#${name.toLowerCase()}`, sk: 'CLAIM' }),
    /** On each name's claim: the names the deployment's teams hold (the inbound receipt rule's recipients). */
    held: (name: string) => ({ gsi2pk: 'DOMAINS#HELD', gsi2sk: name.toLowerCase() }),
    heldPartition: () => onIndex('gsi2', 'DOMAINS#HELD'),
    /** A team's latest claim of a domain another holds, by the placeholder domain the claim made. */
    claimOf: (teamId: string, domainId: string) => ({ pk: team(teamId), sk: `CLAIMOF#${domainId}` }),
    /** How many domains the team has: moved in the transaction of each create and delete, so the plan cap holds under concurrency. */
    counter: (teamId: string) => ({ pk: `${team(teamId)}#DOMAINS`, sk: 'COUNT' }),
  },
  rate: {
    window: (teamId: string, minute: number, shard: number) => ({
      pk: `${team(teamId)}#RATE#${minute}#${shard}`,
      sk: 'RATE',
    }),
    /**
     * A team's request window takes one shard per 30,000 requests a minute of its limit (500 a
     * second at 1 WCU: half a partition), up to 16 (8,000 requests a second); each shard holds its
     * part of the team's and the keys' limits (request-rate.ts).
     */
    windowShardRequests: 30_000,
    windowMaxShards: 16,
    /** Failed authentications from one address in one minute, per surface (the API keys' keeps its original key). */
    authFailures: (ip: string, minute: number, surface = 'api') => ({
      pk: `AUTHFAIL#${surface === 'api' ? '' : `${surface}:`}${ip}#${minute}`,
      sk: 'AUTHFAIL',
    }),
    /** The hosted MCP server's calls by one signed-in person (spec §8: apart from the key windows). */
    mcpWindow: (userId: string, minute: number) => ({ pk: `USER#${userId}#MCPRATE#${minute}`, sk: 'RATE' }),
  },
  idempotency: {
    /**
     * The partition of a team's idempotency records of one key (Powertools writes the hashed key as
     * sk): the key's shard, so a team sending every email with a key spreads its records. A record
     * is written twice (in progress, then done: ~2-3 WCU); over 16 shards ≈ 0.2 WCU per send per
     * partition: ~5,000 keyed sends/s of one team.
     */
    partition: (teamId: string, key: string) => `${team(teamId)}#IDEMPOTENCY#${hashShard(key, IDEMPOTENCY_SHARDS)}`,
  },
  deliverability: {
    /** One shard of a team's counts of a day (the email id picks it; the day's counts are the shards' sum). */
    day: (teamId: string, day: string, shard: number) => ({ pk: `${team(teamId)}#DELIV#${day}#${shard}`, sk: 'DELIV' }),
    /** The platform's counts in one delivery region and day (every team's mail sent from it), in shards as well. */
    regionDay: (region: string, day: string, shard: number) => ({
      pk: `REGION#${region}#DELIV#${day}#${shard}`,
      sk: 'DELIV',
    }),
    shards: DELIVERABILITY_SHARDS,
  },
  metrics: {
    /**
     * One UTC hour's email counts in one shard (the email id picks it, so a hot month spreads over
     * METRICS_SHARDS partitions, each its own partition key) of one owner: a domain (`D#<id>`, `D#-` for mail of no domain) or a
     * broadcast (`B#<id>`); `hour` is `yyyy-mm-ddThh`. The team's totals are its domains' sum.
     */
    hour: (teamId: string, hour: string, owner: MetricsOwner, emailId: string) => ({
      pk: `${team(teamId)}#METRICS#${hour.slice(0, 7)}#${shardOf(emailId, METRICS_SHARDS)}`,
      sk: `HOUR#${hour}#${owner.kind === 'broadcast' ? 'B' : 'D'}#${owner.id ?? '-'}`,
    }),
    /** The hour and the owner an hour item counts for, read back from its sort key. */
    hourOf: (sk: string): { hour: string; owner: MetricsOwner } | undefined => {
      const [, hour, kind, id] = sk.split('#');
      if (!hour || (kind !== 'B' && kind !== 'D') || !id) return undefined;
      return { hour, owner: { kind: kind === 'B' ? 'broadcast' : 'domain', id: id === '-' ? null : id } };
    },
    /** One of the month's partitions holding the hours of `yyyy-mm` (a read sums the `monthShards`). */
    month: (teamId: string, month: string, shard: number) => `${team(teamId)}#METRICS#${month}#${shard}`,
    monthShards: METRICS_SHARDS,
    /** Sort keys of the hours from `from` to `to` (`yyyy-mm-ddThh`, both included) in their month's partition. */
    hoursBetween: (from: string, to: string) => [`HOUR#${from}#`, `HOUR#${to}#~`] as const,
  },
  pacing: {
    /**
     * The line of provider sends in one region at one rate, across every worker: `next` is the next
     * free place; place p is due at p × the place spacing (send-slots.ts), so a place only means an
     * instant at the rate it was counted in. A changed rate starts its own line rather than
     * misreading the old one. Past one shard (table/line-shards.ts) each shard `i` of `n` is a line
     * of its own, in a partition of its own; a changed count, or a line widened for clocks' skew
     * (`W<ms>`, PROVIDER_CLOCK_SKEW_MS), starts new lines too.
     */
    line: (region: string, rate: number, shard = 0, shards = 1, widenMs = 0) => {
      const sk = widenMs > 0 ? `PLACES#${rate}#W${widenMs}` : `PLACES#${rate}`;
      return shards > 1 ? { pk: `PACE#${region}#LINE#${shard}/${shards}`, sk } : { pk: `PACE#${region}`, sk };
    },
    /** The planned instants of a region's (or a shard's) last provider calls within its budget, in order, and their sequence number (`calls`, `seq`); the furthest place planned and its instant (`top_place`, `top_at`). */
    calls: (region: string, rate: number, shard = 0, shards = 1, widenMs = 0) => ({
      pk: `PACE#${region}#CALLS#${rate}${shards > 1 ? `#${shard}/${shards}` : ''}${widenMs > 0 ? `#W${widenMs}` : ''}`,
      sk: 'PACE',
    }),
    /** The region's send line parked by a provider state (SES paused, disabled, quota spent, suspended, misconfigured): its reason, since when, and when the account is checked again. */
    parked: (region: string) => ({ pk: `PACE#${region}#PARKED`, sk: 'PACE' }),
    /** Broadcast sends of one second in one region, held to the broadcast share of the rate (ttl). */
    broadcastSecond: (region: string, second: number, shard: number) => ({
      pk: `PACE#${region}#BCAST#${second}#${shard}`,
      sk: 'PACE',
    }),
    /**
     * A broadcast second's shard holds 250 sends (1 WCU each: a quarter of a partition's 1,000
     * WCU/s, leaving room for the refused tries of a full second); a share of 2,000 a second takes
     * 8 shards, and 16 hold 4,000 (broadcast-second.ts).
     */
    broadcastSecondShardSends: 250,
    broadcastSecondMaxShards: 16,
  },
  usage: {
    /** One shard of a team's usage of a day (the day's counts are the shards' sum; bounded-counter.ts). */
    day: (teamId: string, day: string, shard: number) => ({ pk: `${team(teamId)}#USAGE#${day}#${shard}`, sk: 'USAGE' }),
    month: (teamId: string, month: string, shard: number) => ({
      pk: `${team(teamId)}#USAGE#${month}#${shard}`,
      sk: 'USAGE',
    }),
    shards: USAGE_SHARDS,
  },
  email: {
    item: (teamId: string, emailId: string) => ({ pk: `${team(teamId)}#EMAIL#${emailId}`, sk: 'EMAIL' }),
    /** The bodies of an email whose row would not fit one write unit with them (`bodies_apart` on the row). */
    body: (teamId: string, emailId: string) => ({ pk: `${team(teamId)}#EMAIL#${emailId}`, sk: 'EMAIL#BODY' }),
    attachment: (teamId: string, emailId: string, n: number) => ({
      pk: `${team(teamId)}#EMAIL#${emailId}`,
      sk: `ATTACH#${String(n).padStart(4, '0')}`,
    }),
    attachmentPrefix: 'ATTACH#',
    clickPrefix: 'CLICK#',
    click: (teamId: string, emailId: string, at: number, clickId: string) => ({
      pk: `${team(teamId)}#EMAIL#${emailId}`,
      sk: `CLICK#${String(at).padStart(15, '0')}#${clickId}`,
    }),
    clicksBetween: (from: number, to: number) =>
      [`CLICK#${String(Math.max(0, from)).padStart(15, '0')}`, `CLICK#${String(to).padStart(15, '0')}$`] as const,
    listing: (teamId: string, emailId: string) => ({
      gsi1pk: `${team(teamId)}#EMAILS#${shardOf(emailId, EMAIL_LIST_SHARDS)}`,
      gsi1sk: emailId,
    }),
    listPartition: (teamId: string, shard: number) => onIndex('gsi1', `${team(teamId)}#EMAILS#${shard}`),
    listShards: EMAIL_LIST_SHARDS,
    /** Present while the email waits for the provider (queued, scheduled, sending): when it is due there. */
    sendDue: (emailId: string, dueAt: string) => ({
      gsi3pk: `DUE#SEND#${shardOf(emailId, EMAIL_DUE_SHARDS)}`,
      gsi3sk: `${dueAt}#${emailId}`,
    }),
    sendDuePartition: (shard: number) => onIndex('gsi3', `DUE#SEND#${shard}`),
    /** When an email as read is due at the provider by its `sendDue` entry (epoch ms); undefined when it has none. */
    sendDueOf: (item: object): number | undefined => {
      const { gsi3pk, gsi3sk } = item as { gsi3pk?: unknown; gsi3sk?: unknown };
      return typeof gsi3pk === 'string' && gsi3pk.startsWith('DUE#SEND#') && typeof gsi3sk === 'string'
        ? Date.parse(gsi3sk.slice(0, gsi3sk.indexOf('#')))
        : undefined;
    },
    /** Present while the email is parked past the daily cap: when it may be released. */
    parkedDue: (emailId: string, releaseAt: string) => ({
      gsi3pk: `DUE#PARKED#${shardOf(emailId, EMAIL_DUE_SHARDS)}`,
      gsi3sk: `${releaseAt}#${emailId}`,
    }),
    parkedDuePartition: (shard: number) => onIndex('gsi3', `DUE#PARKED#${shard}`),
    dueShards: EMAIL_DUE_SHARDS,
    /** Present while the email is held for review. */
    held: (teamId: string, emailId: string) => ({ gsi2pk: `${team(teamId)}#HELD`, gsi2sk: emailId }),
    heldPartition: (teamId: string) => onIndex('gsi2', `${team(teamId)}#HELD`),
    /** The attributes of `sendDue` and `parkedDue`: removed, the email leaves both due lists. */
    dueAttributes: ['gsi3pk', 'gsi3sk'] as const,
    /** The attributes of `held`: removed, the email leaves the review list. */
    heldAttributes: ['gsi2pk', 'gsi2sk'] as const,
    /** The index attributes a status change must clear (the due and held entries). */
    waitingAttributes: ['gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'] as const,
  },
  event: {
    /** Event items spread over 8 partitions per team so a busy team's writes do not share one key. */
    item: (teamId: string, eventId: string) => ({
      pk: `${team(teamId)}#EVENTS#${shardOf(eventId, EVENT_SHARDS)}`,
      sk: `EVENT#${eventId}`,
    }),
    partition: (teamId: string, shard: number) => `${team(teamId)}#EVENTS#${shard}`,
    shards: EVENT_SHARDS,
    prefix: 'EVENT#',
    /** Present until the event has been fanned out to webhooks: when it was recorded. */
    undispatched: (teamId: string, eventId: string, createdAt: string) => ({
      gsi3pk: `DUE#EVENT#${shardOf(eventId, EVENT_DUE_SHARDS)}`,
      gsi3sk: `${createdAt}#${teamId}#${eventId}`,
    }),
    undispatchedPartition: (shard: number) => onIndex('gsi3', `DUE#EVENT#${shard}`),
    /** The attributes of `undispatched`: removed once the event is fanned out. */
    undispatchedAttributes: ['gsi3pk', 'gsi3sk'] as const,
    dueShards: EVENT_DUE_SHARDS,
  },
  suppression: {
    byAddress: (teamId: string, email: string) => ({ pk: `${team(teamId)}#SUPP`, sk: `ADDR#${email.toLowerCase()}` }),
    listing: (teamId: string, id: string) => ({ gsi1pk: `${team(teamId)}#SUPPRESSIONS`, gsi1sk: id }),
    listPartition: (teamId: string) => onIndex('gsi1', `${team(teamId)}#SUPPRESSIONS`),
  },
  contact: {
    item: (teamId: string, contactId: string) => ({ pk: `${team(teamId)}#CONTACTS`, sk: `CONTACT#${contactId}` }),
    partition: (teamId: string) => `${team(teamId)}#CONTACTS`,
    prefix: 'CONTACT#',
    emailGuard: (teamId: string, email: string) => ({
      pk: `${team(teamId)}#CONTACTS`,
      sk: `EMAIL#${email.toLowerCase()}`,
    }),
    topicChoice: (teamId: string, contactId: string, topicId: string) => ({
      pk: `${team(teamId)}#CONTACTS`,
      sk: `CHOICE#${contactId}#${topicId}`,
    }),
    topicChoicePrefix: (contactId: string) => `CHOICE#${contactId}#`,
    counter: (teamId: string) => ({ pk: `${team(teamId)}#CONTACTS`, sk: 'COUNT' }),
    membership: (teamId: string, segmentId: string, contactId: string) => ({
      pk: `${team(teamId)}#CONTACTS`,
      sk: `MEMBER#${segmentId}#${contactId}`,
    }),
    membershipPrefix: (segmentId: string) => `MEMBER#${segmentId}#`,
  },
  segment: {
    item: (teamId: string, segmentId: string) => ({ pk: team(teamId), sk: `SEGMENT#${segmentId}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'SEGMENT#',
  },
  contactProperty: {
    item: (teamId: string, id: string) => ({ pk: team(teamId), sk: `PROP#${id}` }),
    keyGuard: (teamId: string, key: string) => ({ pk: team(teamId), sk: `PROPKEY#${key}` }),
    counter: (teamId: string) => ({ pk: team(teamId), sk: 'PROPCOUNT' }),
    partition: (teamId: string) => team(teamId),
    prefix: 'PROP#',
  },
  topic: {
    item: (teamId: string, topicId: string) => ({ pk: team(teamId), sk: `TOPIC#${topicId}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'TOPIC#',
  },
  eraseJob: {
    item: (teamId: string, jobId: string) => ({ pk: `${team(teamId)}#ERASE`, sk: jobId }),
    /** The running-jobs marker the erase worker's sweep reads (removed when the job finishes). */
    running: (teamId: string, jobId: string) => ({ pk: 'ERASEJOBS', sk: `${teamId}#${jobId}` }),
    runningPartition: () => 'ERASEJOBS',
  },
  /** Request logs (GET /logs): one partition per team, written by the recorder worker only. */
  requestLog: {
    /** A request log row, in the shard its id picks (GET /logs merges the shards, newest first). */
    item: (teamId: string, id: string) => ({
      pk: `${team(teamId)}#LOGS#${shardOf(id, REQUEST_LOG_SHARDS)}`,
      sk: `LOG#${id}`,
    }),
    partition: (teamId: string, shard: number) => `${team(teamId)}#LOGS#${shard}`,
    shards: REQUEST_LOG_SHARDS,
    prefix: 'LOG#',
  },
  webhook: {
    item: (teamId: string, webhookId: string) => ({ pk: team(teamId), sk: `WEBHOOK#${webhookId}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'WEBHOOK#',
    /** The delivery log of one endpoint: one row per event, its attempts beside it, in the event's shard. */
    logPartition: (teamId: string, webhookId: string, shard: number) => webhookLog(teamId, webhookId, shard),
    logShards: WEBHOOK_LOG_SHARDS,
    delivery: (teamId: string, webhookId: string, eventId: string) => ({
      pk: webhookLog(teamId, webhookId, shardOf(eventId, WEBHOOK_LOG_SHARDS)),
      sk: `DELIVERY#${eventId}`,
    }),
    deliveryPrefix: 'DELIVERY#',
    attempt: (teamId: string, webhookId: string, eventId: string, attemptId: string) => ({
      pk: webhookLog(teamId, webhookId, shardOf(eventId, WEBHOOK_LOG_SHARDS)),
      sk: `ATTEMPT#${eventId}#${attemptId}`,
    }),
    attemptPrefix: (eventId: string) => `ATTEMPT#${eventId}#`,
    /** One item per in-flight place of an endpoint (each its own partition). */
    inFlight: (webhookId: string, slot: number) => ({ pk: `WHFLIGHT#${webhookId}#SLOT#${slot}`, sk: 'FLIGHT' }),
    second: (webhookId: string, second: number, shard: number) => ({
      pk: `WHRATE#${webhookId}#${second}#SHARD#${shard}`,
      sk: 'RATE',
    }),
    secondShards: WEBHOOK_RATE_SHARDS,
  },
  template: {
    item: (teamId: string, id: string) => ({ pk: team(teamId), sk: `TEMPLATE#${id}` }),
    aliasGuard: (teamId: string, alias: string) => ({ pk: team(teamId), sk: `TEMPLATEALIAS#${alias}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'TEMPLATE#',
  },
  broadcast: {
    item: (teamId: string, id: string) => ({ pk: team(teamId), sk: `BROADCAST#${id}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'BROADCAST#',
    checkpoint: (teamId: string, id: string) => ({ pk: `${team(teamId)}#BCAST#${id}`, sk: 'CHECKPOINT' }),
    recipient: (teamId: string, id: string, contactId: string) => ({
      pk: `${team(teamId)}#BCAST#${id}`,
      sk: `RCPT#${contactId}`,
    }),
    recipientPartition: (teamId: string, id: string) => `${team(teamId)}#BCAST#${id}`,
    recipientPrefix: 'RCPT#',
    /** Send counters spread over shards so concurrent sends do not contend on one item. */
    counter: (teamId: string, id: string, shard: number) => ({
      pk: `${team(teamId)}#BCAST#${id}`,
      sk: `COUNT#${String(shard).padStart(2, '0')}`,
    }),
    counterShards: 32,
    /** A link of the broadcast's mail with its click counts (`linkId`: a UUID derived from the URL). */
    link: (teamId: string, id: string, linkId: string) => ({ pk: `${team(teamId)}#BCAST#${id}`, sk: `LINK#${linkId}` }),
    linkPrefix: 'LINK#',
    /** One recipient's clicks on one link. */
    recipientLink: (teamId: string, id: string, contactId: string, linkId: string) => ({
      pk: `${team(teamId)}#BCAST#${id}`,
      sk: `RLINK#${contactId}#${linkId}`,
    }),
    recipientLinkPrefix: (contactId: string) => `RLINK#${contactId}#`,
    /** A broadcast holding broadcast capacity in a region, from send until its last send. */
    lane: (region: string, broadcastId: string) => ({ pk: `BCASTLANE#${region}`, sk: broadcastId }),
    lanePartition: (region: string) => `BCASTLANE#${region}`,
    pauseTeam: (teamId: string) => ({ pk: 'BCASTPAUSE', sk: `TEAM#${teamId}` }),
    pauseRegion: (region: string) => ({ pk: 'BCASTPAUSE', sk: `REGION#${region}` }),
  },
  user: {
    item: (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' }),
    emailGuard: (email: string) => ({ pk: `USEREMAIL#${email.toLowerCase()}`, sk: 'USEREMAIL' }),
  },
  member: {
    item: (teamId: string, userId: string) => ({ pk: team(teamId), sk: `MEMBER#${userId}` }),
    listing: (userId: string, teamId: string) => ({ gsi1pk: `USER#${userId}#TEAMS`, gsi1sk: teamId }),
    teamsPartition: (userId: string) => onIndex('gsi1', `USER#${userId}#TEAMS`),
    partition: (teamId: string) => team(teamId),
    prefix: 'MEMBER#',
  },
  invitation: {
    item: (teamId: string, id: string) => ({ pk: team(teamId), sk: `INVITE#${id}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'INVITE#',
  },
  emailShare: {
    item: (tokenHash: string) => ({ pk: `EMAILSHARE#${tokenHash}`, sk: 'SHARE' }),
    listing: (teamId: string, emailId: string, shareId: string) => ({
      gsi1pk: `${team(teamId)}#SHARES#${emailId}`,
      gsi1sk: shareId,
    }),
    listPartition: (teamId: string, emailId: string) => onIndex('gsi1', `${team(teamId)}#SHARES#${emailId}`),
  },
  oneTime: {
    item: (tokenHash: string) => ({ pk: `ONETIME#${tokenHash}`, sk: 'ONETIME' }),
  },
  session: {
    item: (idHash: string) => ({ pk: `SESSION#${idHash}`, sk: 'SESSION' }),
  },
  signInFailures: {
    window: (email: string, quarter: number) => ({ pk: `SIGNINFAIL#${email.toLowerCase()}#${quarter}`, sk: 'FAIL' }),
  },
  signInLinks: {
    byAddress: (email: string, quarter: number) => ({
      pk: `SIGNINLINK#${email.toLowerCase()}#${quarter}`,
      sk: 'ADDRESS',
    }),
    bySource: (ip: string, quarter: number) => ({ pk: `SIGNINLINK#${ip}#${quarter}`, sk: 'SOURCE' }),
  },
  audit: {
    item: (teamId: string, id: string) => ({ pk: `${team(teamId)}#AUDIT`, sk: id }),
    partition: (teamId: string) => `${team(teamId)}#AUDIT`,
  },
  system: {
    team: () => ({ pk: 'SYSTEM', sk: 'TEAM' }),
  },
  oauth: {
    client: (clientId: string) => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'CLIENT' }),
    /** Client registrations from one address in one quarter hour (spec §8: 10 per 15 minutes). */
    registrations: (address: string, quarter: number) => ({ pk: `OAUTHREG#${address}#${quarter}`, sk: 'RATE' }),
    request: (idHash: string) => ({ pk: `OAUTHREQ#${idHash}`, sk: 'REQUEST' }),
    code: (codeHash: string) => ({ pk: `OAUTHCODE#${codeHash}`, sk: 'CODE' }),
    accessToken: (tokenHash: string) => ({ pk: `OAUTHTOKEN#${tokenHash}`, sk: 'ACCESS' }),
    refreshToken: (tokenHash: string) => ({ pk: `OAUTHTOKEN#${tokenHash}`, sk: 'REFRESH' }),
    grant: (teamId: string, grantId: string) => ({ pk: team(teamId), sk: `OAUTHGRANT#${grantId}` }),
    grantPartition: (teamId: string) => team(teamId),
    grantPrefix: 'OAUTHGRANT#',
  },
  mailbox: {
    item: (teamId: string, mailboxId: string) => ({ pk: team(teamId), sk: `MAILBOX#${mailboxId}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'MAILBOX#',
    /** Across all teams: which mailbox an address belongs to (inbound routing reads it before any team is known). */
    addressGuard: (address: string) => ({ pk: `MAILBOXADDR#${address.toLowerCase()}`, sk: 'MAILBOXADDR' }),
    /** The partition of a mailbox's threads, Message-ID index, drafts and labels. */
    threadPartition: (teamId: string, mailboxId: string) => `${team(teamId)}#MBOX#${mailboxId}`,
    thread: (teamId: string, mailboxId: string, threadId: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `THREAD#${threadId}`,
    }),
    threadPrefix: 'THREAD#',
    /**
     * A message's entry in its thread's item collection on the base table, written in the
     * message's own transaction: what acts on every message of a thread (remove, move) reads
     * these with a consistent read, never the thread index (gsi3), which lags on AWS.
     */
    threadMessage: (teamId: string, mailboxId: string, threadId: string, messageId: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}#THREAD#${threadId}`,
      sk: `MSG#${messageId}`,
    }),
    threadMessagePartition: (teamId: string, mailboxId: string, threadId: string) =>
      `${team(teamId)}#MBOX#${mailboxId}#THREAD#${threadId}`,
    threadMessagePrefix: 'MSG#',
    threadListing: (teamId: string, mailboxId: string, folder: string, lastAt: string, threadId: string) => ({
      gsi1pk: `${team(teamId)}#MBOX#${mailboxId}#THREADS#${folder}`,
      gsi1sk: `${lastAt}#${threadId}`,
    }),
    threadListPartition: (teamId: string, mailboxId: string, folder: string) =>
      onIndex('gsi1', `${team(teamId)}#MBOX#${mailboxId}#THREADS#${folder}`),
    /** A Message-ID seen in the mailbox (hashed: ids are long and free-form). */
    messageId: (teamId: string, mailboxId: string, messageIdHash: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `MSGID#${messageIdHash}`,
    }),
    key: (hash: string) => ({ pk: `MAILBOXKEY#${hash}`, sk: 'MAILBOXKEY' }),
    keyListing: (teamId: string, mailboxId: string, keyId: string) => ({
      gsi1pk: `${team(teamId)}#MBOX#${mailboxId}#KEYS`,
      gsi1sk: keyId,
    }),
    keyListPartition: (teamId: string, mailboxId: string) => onIndex('gsi1', `${team(teamId)}#MBOX#${mailboxId}#KEYS`),
    draft: (teamId: string, mailboxId: string, draftId: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `DRAFT#${draftId}`,
    }),
    label: (teamId: string, mailboxId: string, labelId: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `LABEL#${labelId}`,
    }),
    draftPrefix: 'DRAFT#',
    labelPrefix: 'LABEL#',
    labelName: (teamId: string, mailboxId: string, name: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `LABELNAME#${name.toLowerCase()}`,
    }),
    /** What the agents of a mailbox are told (the SDK inbox's agent settings). */
    agentSettings: (teamId: string, mailboxId: string) => ({ pk: `${team(teamId)}#MBOX#${mailboxId}`, sk: 'AGENT' }),
    /** The recipients a mailbox has sent to in one license period (the outbound allowance). */
    allowance: (teamId: string, mailboxId: string, periodStart: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `ALLOWANCE#${periodStart}`,
    }),
    /** When the owner was last told a draft awaits approval (at most one notice per 10 minutes). */
    approvalNotice: (teamId: string, mailboxId: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: 'APPROVALNOTICE',
    }),
    /** The activity of a mailbox (UUIDv7 ids: oldest first by sort key). */
    activity: (teamId: string, mailboxId: string, id: string) => ({
      pk: `${team(teamId)}#MBOX#${mailboxId}`,
      sk: `ACTIVITY#${id}`,
    }),
    activityPrefix: 'ACTIVITY#',
    /** A team's mailbox license (cloud mode), granted by the operator. */
    license: (teamId: string) => ({ pk: team(teamId), sk: 'MAILBOXLICENSE' }),
    /** Bytes a team's mailboxes hold: received mail, drafts and their attachments. */
    storage: (teamId: string) => ({ pk: team(teamId), sk: 'MAILBOXSTORAGE' }),
    /** The operator's switch of mailbox sending, for every team (`*`) or one (off: sends answer 503, drafts are kept). */
    transport: (scope: string) => ({ pk: 'OPERATOR', sk: `MAILBOXTRANSPORT#${scope}` }),
  },
  message: {
    item: (teamId: string, messageId: string) => ({ pk: `${team(teamId)}#MSG#${messageId}`, sk: 'MSG' }),
    partition: (teamId: string, messageId: string) => `${team(teamId)}#MSG#${messageId}`,
    folderListing: (teamId: string, mailboxId: string, folder: string, messageId: string) => ({
      gsi1pk: `${team(teamId)}#MBOX#${mailboxId}#MSGS#${folder}`,
      gsi1sk: messageId,
    }),
    folderPartition: (teamId: string, mailboxId: string, folder: string) =>
      onIndex('gsi1', `${team(teamId)}#MBOX#${mailboxId}#MSGS#${folder}`),
    receivedListing: (teamId: string, messageId: string) => ({ gsi2pk: `${team(teamId)}#RECEIVED`, gsi2sk: messageId }),
    receivedPartition: (teamId: string) => onIndex('gsi2', `${team(teamId)}#RECEIVED`),
    threadListing: (teamId: string, threadId: string, messageId: string) => ({
      gsi3pk: `${team(teamId)}#THREAD#${threadId}`,
      gsi3sk: messageId,
    }),
    threadPartition: (teamId: string, threadId: string) => onIndex('gsi3', `${team(teamId)}#THREAD#${threadId}`),
  },
  inbound: {
    /** Mail no mailbox takes, counted per day (no team is known for it). */
    dropped: (day: string) => ({ pk: 'INBOUND#DROPPED', sk: `DAY#${day}` }),
  },
  eventDefinition: {
    item: (teamId: string, id: string) => ({ pk: team(teamId), sk: `EVENTDEF#${id}` }),
    nameGuard: (teamId: string, name: string) => ({ pk: team(teamId), sk: `EVENTNAME#${name}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'EVENTDEF#',
  },
  automation: {
    item: (teamId: string, id: string) => ({ pk: team(teamId), sk: `AUTOMATION#${id}` }),
    partition: (teamId: string) => team(teamId),
    prefix: 'AUTOMATION#',
    version: (teamId: string, id: string, versionId: string) => ({
      pk: `${team(teamId)}#AUTO#${id}`,
      sk: `VERSION#${versionId}`,
    }),
    /** The enabled automations an event name starts, written with each save. */
    trigger: (teamId: string, eventName: string, id: string) => ({
      pk: `${team(teamId)}#TRIGGER#${eventName}`,
      sk: id,
    }),
    triggerPartition: (teamId: string, eventName: string) => `${team(teamId)}#TRIGGER#${eventName}`,
    run: (teamId: string, id: string, runId: string) => ({ pk: `${team(teamId)}#AUTO#${id}`, sk: `RUN#${runId}` }),
    runPartition: (teamId: string, id: string) => `${team(teamId)}#AUTO#${id}`,
    runPrefix: 'RUN#',
    /** One run per (automation, triggering event, contact): a redelivered event starts nothing more. */
    start: (teamId: string, id: string, eventId: string, contactId: string) => ({
      pk: `${team(teamId)}#AUTO#${id}`,
      sk: `START#${eventId}#${contactId}`,
    }),
    runCount: (teamId: string, id: string, contactId: string) => ({
      pk: `${team(teamId)}#AUTO#${id}`,
      sk: `RUNCOUNT#${contactId}`,
    }),
    step: (teamId: string, runId: string, n: number) => ({
      pk: `${team(teamId)}#RUN#${runId}`,
      sk: `STEP#${String(n).padStart(4, '0')}`,
    }),
    stepPartition: (teamId: string, runId: string) => `${team(teamId)}#RUN#${runId}`,
    /** How many runs ended each step how (completed, skipped, failed), moved with the step's end. */
    stepCount: (teamId: string, id: string, key: string) => ({
      pk: `${team(teamId)}#AUTO#${id}`,
      sk: `STEPCOUNT#${key}`,
    }),
    stepCountPrefix: 'STEPCOUNT#',
    stepPrefix: 'STEP#',
    /** A run waiting on a wait_for_event step, found by the contact and event name of a later event. */
    waiting: (teamId: string, contactId: string, eventName: string, runId: string, n: number) => ({
      pk: `${team(teamId)}#WAIT#${contactId}#${eventName}`,
      sk: `${runId}#${n}`,
    }),
    waitingPartition: (teamId: string, contactId: string, eventName: string) =>
      `${team(teamId)}#WAIT#${contactId}#${eventName}`,
    /** A custom event a contact sent, in time order per contact and name: a wait reads those since its step began. */
    sentEvent: (teamId: string, contactId: string, name: string, at: string, id: string) => ({
      pk: `${team(teamId)}#SENTEVENTS#${contactId}#${name}`,
      sk: `${at}#${id}`,
    }),
    sentEventPartition: (teamId: string, contactId: string, name: string) =>
      `${team(teamId)}#SENTEVENTS#${contactId}#${name}`,
  },
  schedule: {
    byName: (name: string) => ({ pk: `SCHEDULE#${name}`, sk: 'SCHEDULE' }),
    due: (at: number, name: string) => ({ pk: 'SCHEDULES', sk: `${String(at).padStart(15, '0')}#${name}` }),
    duePartition: () => 'SCHEDULES',
    dueBefore: (at: number) => `${String(at).padStart(15, '0')}$`,
  },
} as const;
