/** How long a new team's mail is screened for imitation (spec §3, review hold). */
const REVIEW_WINDOW_MS = 30 * 24 * 3600 * 1000;

/**
 * Words of the notices phishing imitates: banks, carriers, tax offices and account security.
 * Matched as whole words, case-insensitively, in the sender name and the subject.
 */
const IMITATED = [
  // banks and payments
  'bank',
  'banking',
  'chase',
  'wells fargo',
  'bank of america',
  'citibank',
  'hsbc',
  'barclays',
  'santander',
  'paypal',
  'wire transfer',
  // carriers
  'dhl',
  'fedex',
  'ups',
  'usps',
  'royal mail',
  'parcel',
  'shipment on hold',
  'delivery failed',
  'customs fee',
  // tax offices
  'irs',
  'hmrc',
  'tax refund',
  'tax return',
  'tax office',
  'revenue agency',
  // account security
  'account suspended',
  'account locked',
  'account has been locked',
  'unusual sign-in',
  'unusual activity',
  'verify your account',
  'confirm your identity',
  'password reset',
  'security alert',
  'suspicious login',
];
const PATTERN = new RegExp(
  `(^|[^\\p{L}\\p{N}])(${IMITATED.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=$|[^\\p{L}\\p{N}])`,
  'iu',
);

/**
 * True when a send of a team in its first 30 days must wait for review: its sender name or
 * subject imitates a bank, carrier, tax office or account-security notice, or the team's payment
 * was blocked by fraud screening.
 */
export const needsReview = (input: {
  teamCreatedAt: string;
  paymentBlocked: boolean;
  senderName: string | null;
  subject: string;
  now: number;
}): boolean => {
  if (input.now - Date.parse(input.teamCreatedAt) >= REVIEW_WINDOW_MS) return false;
  if (input.paymentBlocked) return true;
  return PATTERN.test(input.subject) || (input.senderName !== null && PATTERN.test(input.senderName));
};
