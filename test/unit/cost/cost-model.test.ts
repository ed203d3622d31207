import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { itemSize } from '@mailstack/core/table/item-size';
import {
  countDbCapacity,
  newCounters,
  readUnits,
  sqsRequests,
  writeUnits,
} from '@mailstack/core/adapters/aws/counters';
import {
  PLATFORM_LOG_BYTES,
  PLATFORM_LOG_EVENTS,
  PRICE_KEYS,
  SES_PLANS,
  type SesPlanName,
  monthlyCost,
  parsePriceTable,
  perUnit,
  sampledTraces,
  type FixedShape,
  type PriceTable,
  type UnitCounts,
  storedBytes,
} from '../../../scripts/cost/model.ts';

/** Every price 0 but the ones given, so each line's arithmetic shows alone. */
const prices = (
  given: Partial<Record<(typeof PRICE_KEYS)[number], number>>,
  ses: Partial<Record<SesPlanName, { perThousandRecipients: number; perMonth: number }>> = {},
): PriceTable => ({
  region: 'us-east-1',
  currency: 'USD',
  hoursPerMonth: 730,
  prices: Object.fromEntries(
    PRICE_KEYS.map((k) => [k, { value: given[k] ?? 0, source: 'https://aws.amazon.com/pricing/', read: '2026-11-25' }]),
  ) as PriceTable['prices'],
  sesPlans: Object.fromEntries(
    SES_PLANS.map((k) => [
      k,
      {
        plan: k.toUpperCase(),
        perThousandRecipients: 0,
        perMonth: 0,
        ...ses[k],
        source: 'https://aws.amazon.com/ses/pricing/',
        read: '2026-12-07',
      },
    ]),
  ) as PriceTable['sesPlans'],
});
/** Relay and tracing off, SES's plan none (à la carte). */
const DEFAULT = { relay: false, tracing: false, sesPlan: 'none' } as const;
const ZERO: UnitCounts = {
  apiRequests: 0,
  lambdaInvocations: 0,
  lambdaBilledMs: 0,
  ddbReadUnits: 0,
  ddbWriteUnits: 0,
  sqsRequests: 0,
  snsNotifications: 0,
  s3Puts: 0,
  s3Gets: 0,
  logBytes: 0,
  logEvents: 0,
  sesRecipients: 0,
};
const NO_FIXED: FixedShape = {
  functionMemoryGb: 1,
  platformLogLines: false,
  alarms: 0,
  dashboards: 0,
  secrets: 0,
  customMetrics: 0,
  polledQueues: 0,
  timerRunsPerMonth: 0,
  timerRun: {
    lambdaInvocations: 0,
    lambdaBilledMs: 0,
    ddbReadUnits: 0,
    ddbWriteUnits: 0,
    sqsRequests: 0,
    logBytes: 0,
    logEvents: 0,
  },
};

describe('capacity units from item sizes', () => {
  it.each([
    { bytes: 1, transactional: false, units: 1 },
    { bytes: 1024, transactional: false, units: 1 },
    { bytes: 1025, transactional: false, units: 2 },
    { bytes: 2500, transactional: false, units: 3 },
    { bytes: 2500, transactional: true, units: 6 },
  ])(
    'a write of $bytes bytes (transaction: $transactional) is $units write units',
    ({ bytes, transactional, units }) => {
      expect(writeUnits(bytes, transactional)).toBe(units);
    },
  );

  it.each([
    { bytes: 4096, options: { consistent: true }, units: 1 },
    { bytes: 4097, options: { consistent: true }, units: 2 },
    { bytes: 4097, options: {}, units: 1 },
    { bytes: 100, options: {}, units: 0.5 },
    { bytes: 8192, options: { transactional: true }, units: 4 },
  ])('a read of $bytes bytes ($options) is $units read units', ({ bytes, options, units }) => {
    expect(readUnits(bytes, options)).toBe(units);
  });

  it('bills storage at the bytes held plus 100 bytes an item, in the table and each index', () => {
    expect(storedBytes({ bytes: 5000, items: 3 })).toBe(5300);
  });

  it('sizes an item as DynamoDB does: names and values in UTF-8 bytes, numbers by their digits', () => {
    expect(itemSize({ pk: 'TEAM#1', sk: 'é' })).toBe(2 + 6 + 2 + 2);
    expect(itemSize({ n: 12345 })).toBe(1 + 4);
    expect(itemSize({ ok: true, list: ['ab'] })).toBe(2 + 1 + 4 + 3 + 1 + 2);
  });

  it('counts what DynamoDB reported when it did, and estimates from item sizes when it did not', () => {
    const counters = newCounters();
    countDbCapacity(
      counters,
      'TransactWriteItemsCommand',
      {},
      { ConsumedCapacity: [{ TableName: 't', CapacityUnits: 8 }] },
    );
    countDbCapacity(counters, 'PutItemCommand', { Item: { pk: 'a', body: 'x'.repeat(2000) } }, {});
    countDbCapacity(
      counters,
      'GetItemCommand',
      {},
      { Item: { pk: 'a' }, ConsumedCapacity: { TableName: 't', CapacityUnits: 0.5 } },
    );
    countDbCapacity(
      counters,
      'QueryCommand',
      { ConsistentRead: true },
      { Items: [{ pk: 'x'.repeat(3000) }, { pk: 'y'.repeat(3000) }] },
    );
    countDbCapacity(
      counters,
      'QueryCommand',
      {},
      { Items: [], ConsumedCapacity: { TableName: 't', CapacityUnits: 0 } },
    );
    expect(counters.ddbWriteUnits).toBe(8 + 2);
    // an empty query still costs half a unit (eventually consistent)
    expect(counters.ddbReadUnits).toBe(0.5 + 2 + 0.5);
  });

  it('bills an SQS call a request per started 64 KB', () => {
    expect([sqsRequests(0), sqsRequests(65_536), sqsRequests(65_537), sqsRequests(10 * 65_536)]).toEqual([1, 1, 2, 10]);
  });
});

describe('dollars from counts and prices', () => {
  it('prices each line from its count and its price, per 1,000 emails', () => {
    // Prepare: an email of one API request, two 100 ms invocations at 0.5 GB, 10 write and 4 read units, 6 queue requests, 2 notifications.
    const perEmail = {
      ...ZERO,
      sesRecipients: 1,
      apiRequests: 1,
      lambdaInvocations: 2,
      lambdaBilledMs: 200,
      ddbWriteUnits: 10,
      ddbReadUnits: 4,
      sqsRequests: 6,
      snsNotifications: 2,
    };
    const table = prices(
      {
        apiGatewayHttpPerMillionRequests: 1,
        lambdaArmPerMillionRequests: 0.2,
        lambdaArmPerGbSecond: 0.0000133334,
        dynamoDbPerMillionWriteUnits: 0.625,
        dynamoDbPerMillionReadUnits: 0.125,
        sqsPerMillionRequests: 0.4,
        snsPerMillionPublishes: 0.5,
      },
      { none: { perThousandRecipients: 0.1, perMonth: 0 } },
    );
    // Act
    const cost = monthlyCost(1_000_000, perEmail, { ...NO_FIXED, functionMemoryGb: 0.5 }, table, DEFAULT);
    // Assess
    const line = (name: string) => cost.variable.find((l) => l.name === name)!.dollars;
    expect(line('SES')).toBeCloseTo(100, 6);
    expect(line('API Gateway')).toBeCloseTo(1, 6);
    expect(line('Lambda requests')).toBeCloseTo(0.4, 6);
    expect(line('Lambda GB-s')).toBeCloseTo(1_000_000 * 0.1 * 0.0000133334, 6);
    expect(line('DynamoDB writes')).toBeCloseTo(6.25, 6);
    expect(line('DynamoDB reads')).toBeCloseTo(0.5, 6);
    expect(line('SQS')).toBeCloseTo(2.4, 6);
    expect(line('SNS')).toBeCloseTo(1, 6);
    expect(cost.per1000.allIn).toBeCloseTo(cost.variableTotal / 1000, 9);
    expect(cost.per1000.beyondSes).toBeCloseTo(cost.per1000.allIn - 0.1, 9);
  });

  it.each([
    { sesPlan: 'none', perThousand: 0.1, perMonth: 0 },
    { sesPlan: 'essentials', perThousand: 0.16, perMonth: 0 },
    { sesPlan: 'pro', perThousand: 0.22, perMonth: 105 },
  ] as const)(
    "prices SES per recipient at the $sesPlan plan's price, its monthly fee a fixed line, none of it beyond SES",
    ({ sesPlan, perThousand, perMonth }) => {
      // Prepare: emails to three recipients each (to, cc, bcc), one API request each.
      const table = prices(
        { apiGatewayHttpPerMillionRequests: 1 },
        {
          none: { perThousandRecipients: 0.1, perMonth: 0 },
          essentials: { perThousandRecipients: 0.16, perMonth: 0 },
          pro: { perThousandRecipients: 0.22, perMonth: 105 },
        },
      );
      const perEmail = { ...ZERO, sesRecipients: 3, apiRequests: 1 };
      // Act
      const cost = monthlyCost(1_000_000, perEmail, NO_FIXED, table, { ...DEFAULT, sesPlan });
      const one = monthlyCost(1_000_000, { ...perEmail, sesRecipients: 1 }, NO_FIXED, table, { ...DEFAULT, sesPlan });
      // Assess
      const ses = cost.variable.find((l) => l.name === 'SES')!.dollars;
      expect(ses).toBeCloseTo(3 * 1000 * perThousand, 6);
      expect(ses).toBeCloseTo(3 * one.variable.find((l) => l.name === 'SES')!.dollars, 6);
      expect(cost.fixed.find((l) => l.name === `SES plan (${sesPlan})`)!.dollars).toBe(perMonth);
      expect(cost.per1000.beyondSes).toBeCloseTo(0.001, 9);
    },
  );

  it("amortizes the fixed lines over the volume, and adds the relay's only when it is on", () => {
    const fixed: FixedShape = {
      ...NO_FIXED,
      alarms: 30,
      dashboards: 1,
      secrets: 1,
      relay: {
        tasks: 2,
        vcpu: 0.25,
        memoryGb: 0.5,
        loadBalancers: 1,
        publicIpv4: 4,
        scalingAlarms: 2,
        secrets: 1,
        containerInsightsMetrics: 0,
      },
    };
    const table = prices({
      alarmPerMonth: 0.1,
      dashboardPerMonth: 3,
      secretPerMonth: 0.4,
      fargateArmPerVcpuHour: 0.03238,
      fargateArmPerGbHour: 0.00356,
      nlbPerHour: 0.0225,
      publicIpv4PerHour: 0.005,
    });
    const off = monthlyCost(100_000, ZERO, fixed, table, DEFAULT);
    const on = monthlyCost(100_000, ZERO, fixed, table, { ...DEFAULT, relay: true });
    expect(off.fixedTotal).toBeCloseTo(3 + 3 + 0.4, 6);
    expect(off.per1000.fixed).toBeCloseTo(6.4 / 100, 9);
    const relay = 2 * 730 * (0.25 * 0.03238 + 0.5 * 0.00356) + 730 * 0.0225 + 4 * 730 * 0.005 + 2 * 0.1 + 0.4;
    expect(on.fixedTotal - off.fixedTotal).toBeCloseTo(relay, 6);
  });

  it("adds Lambda's own lines to each invocation's log bytes only where its system log level lets them through", () => {
    const table = prices({ logsPerGbIngested: 0.5 });
    const logs = (platformLogLines: boolean) =>
      monthlyCost(
        1_000_000,
        { ...ZERO, lambdaInvocations: 2, logBytes: 1000, logEvents: 4 },
        { ...NO_FIXED, platformLogLines },
        table,
        DEFAULT,
      ).variable.find((l) => l.name === 'CloudWatch Logs')!.dollars;
    expect(logs(false)).toBeCloseTo(((1_000_000 * (1000 + 4 * 26)) / 1e9) * 0.5, 9);
    expect(logs(true)).toBeCloseTo(
      ((1_000_000 * (1000 + 2 * PLATFORM_LOG_BYTES + (4 + 2 * PLATFORM_LOG_EVENTS) * 26)) / 1e9) * 0.5,
      9,
    );
  });

  it('counts X-Ray traces with the default sampling (one a second, then 5% of the rest), and none with tracing off', () => {
    const reservoir = 730 * 3600;
    expect(sampledTraces(1000, 730)).toBe(1000);
    expect(sampledTraces(reservoir + 1_000_000, 730)).toBeCloseTo(reservoir + 50_000, 6);
    const table = prices({ xrayPerMillionTraces: 5 });
    const xray = (emails: number, tracing: boolean) =>
      monthlyCost(emails, { ...ZERO, lambdaInvocations: 2 }, NO_FIXED, table, { ...DEFAULT, tracing }).variable.find(
        (l) => l.name === 'X-Ray',
      )!.dollars;
    expect(xray(1_000_000, true)).toBeCloseTo(10, 6);
    expect(xray(10_000_000, true)).toBeCloseTo(((reservoir + 0.05 * (20_000_000 - reservoir)) / 1e6) * 5, 6);
    expect(xray(10_000_000, false)).toBe(0);
  });

  it('divides a counter delta into per-email units, the three kinds of queue request together', () => {
    const units = perUnit(
      { apiRequests: 10, queueRequests: 20, queueReceiveRequests: 10, queueDeleteRequests: 10, ddbWriteUnits: 55 },
      { bytes: 5000, events: 20 },
      10,
    );
    expect(units).toMatchObject({
      apiRequests: 1,
      sqsRequests: 4,
      ddbWriteUnits: 5.5,
      logBytes: 500,
      logEvents: 2,
      sesRecipients: 1,
    });
    expect(perUnit({}, { bytes: 0, events: 0 }, 10, 3).sesRecipients).toBe(3);
  });
});

describe('the price table', () => {
  it('in the repository holds every price the model reads, each with its source and the date it was read', () => {
    const table = parsePriceTable(
      JSON.parse(readFileSync(new URL('../../../scripts/cost/prices-us-east-1.json', import.meta.url), 'utf8')),
      'prices-us-east-1.json',
    );
    expect(Object.keys(table.prices).sort()).toEqual([...PRICE_KEYS].sort());
    expect(Object.keys(table.sesPlans).sort()).toEqual([...SES_PLANS].sort());
    // À la carte: $0.10 per 1,000 recipients, no monthly fee.
    expect(table.sesPlans.none).toMatchObject({ plan: 'NONE', perThousandRecipients: 0.1, perMonth: 0 });
    for (const plan of SES_PLANS)
      expect(table.sesPlans[plan].source).toMatch(/^https:\/\/([a-z0-9.-]+\.)?(amazon|amazonaws)\.com\//);
  });

  it('refuses a table with a missing or malformed price, naming it', () => {
    const raw = JSON.parse(
      readFileSync(new URL('../../../scripts/cost/prices-us-east-1.json', import.meta.url), 'utf8'),
    );
    delete raw.prices.nlbPerHour;
    raw.prices.sqsPerMillionRequests.value = 'cheap';
    expect(() => parsePriceTable(raw, 'eu.json')).toThrow(/^eu\.json is not a price table: .*prices\.nlbPerHour: /);
    expect(() => parsePriceTable(raw, 'eu.json')).toThrow(
      /prices\.sqsPerMillionRequests\.value: Invalid type: Expected number/,
    );
  });
});
