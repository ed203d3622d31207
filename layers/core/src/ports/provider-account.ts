/**
 * The provider account's own state in one region, as the provider reports it (SES v2 GetAccount):
 * whether it sends at all, its maximum send rate, and its 24-hour quota and use.
 */
interface ProviderAccountState {
  /** False: the account's sending is disabled (or paused by the provider). */
  readonly sendingEnabled: boolean;
  /** Recipients a second the provider accepts; undefined when it did not say. */
  readonly maxSendRate: number | undefined;
  /** Recipients per 24 hours; -1 or undefined: no quota. */
  readonly max24HourSend: number | undefined;
  /** Recipients sent in the last 24 hours. */
  readonly sentLast24Hours: number | undefined;
  /** The provider's reputation enforcement status (SES: HEALTHY, PROBATION, SHUTDOWN). */
  readonly enforcementStatus: string | undefined;
}

/** Reads the provider account's state (throws a TransportError `paused` when the read itself is refused). */
export interface ProviderAccount {
  read(region: string): Promise<ProviderAccountState>;
}
