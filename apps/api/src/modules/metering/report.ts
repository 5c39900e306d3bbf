import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  REPORT_SESSION_MINUTES,
  type ReportUrlResponse,
  CONSUMPTION_CATEGORIES,
  METERING_DIMENSION_LABELS,
  PRODUCT,
  formatUsdCents,
  type MeteringDimension,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { escapeHtml } from '../../lib/html.js';
import type { TransactionRecord } from '../billing/index.js';
import type { CostAnalysisValues } from './cost-analysis.js';
import type { SubscriptionCost } from './cost-overview.js';

/**
 * A report session: who may see which account's report, until when, for which sign-in session. Signed, so the
 * frame needs no bearer token; bound to the session that asked, so it ends with it (logout, a staff view's end).
 */
export interface ReportSession {
  accountId: string;
  userId: string;
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

const sign = (secret: string, body: string) => createHmac('sha256', `report:${secret}`).update(body).digest('base64url');

export function reportToken(secret: string, session: ReportSession): string {
  const body = Buffer.from(JSON.stringify(session)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** The session a token carries, or null when it is forged or malformed (expiry and logout are checked by the caller). */
export function readReportToken(secret: string, token: string): ReportSession | null {
  const [body, mac] = token.split('.');
  if (!body || !mac) return null;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const session = JSON.parse(Buffer.from(body, 'base64url').toString()) as ReportSession;
    const complete =
      typeof session.accountId === 'string' && typeof session.sessionId === 'string' && typeof session.expiresAt === 'number';
    return complete ? session : null;
  } catch {
    return null;
  }
}

export interface ReportSessionDeps {
  secret?: string;
  /** Where the portal is reached (report addresses). */
  publicUrl?: string;
  clock: Clock;
  /** Whether a sign-in session is still open: not ended by logout or a staff view's end, and not past its end. */
  sessionLive: (sessionId: string) => Promise<boolean>;
  /** When the user last asked to end their report sessions (GET /api/user/report-logout). */
  reportLogoutAt: (userId: string) => Promise<Date | null>;
}

/** Issues report addresses and tells which ones still open a report. */
export function createReportSessions(deps: ReportSessionDeps) {
  const secret = () => {
    if (!deps.secret) throw new Error('metering needs the server secret to sign report sessions');
    return deps.secret;
  };
  return {
    issue(claims: { accountId: string; userId: string; sessionId: string }): ReportUrlResponse {
      const now = deps.clock.now().getTime();
      const expiresAt = now + REPORT_SESSION_MINUTES * 60_000;
      const token = reportToken(secret(), { ...claims, issuedAt: now, expiresAt });
      const url = `${deps.publicUrl ?? ''}/reports/subscription?token=${encodeURIComponent(token)}`;
      return { data: { subscription_report_url: url }, subscription_report_url: url, expires_at: new Date(expiresAt).toISOString() };
    },

    /** The session a report address carries, or null when it is forged, expired, logged out or its sign-in session ended. */
    async open(token: string): Promise<ReportSession | null> {
      const session = readReportToken(secret(), token);
      if (!session || session.expiresAt <= deps.clock.now().getTime()) return null;
      const loggedOut = await deps.reportLogoutAt(session.userId);
      if (loggedOut && loggedOut.getTime() >= session.issuedAt) return null;
      return (await deps.sessionLive(session.sessionId)) ? session : null;
    },
  };
}

const usd = (cents: number) => escapeHtml(formatUsdCents(cents));
const label = (category: string) =>
  category.endsWith('_FREE')
    ? `${METERING_DIMENSION_LABELS[category.replace('_FREE', '') as MeteringDimension]} (free units)`
    : METERING_DIMENSION_LABELS[category as MeteringDimension];

/** The printable subscription report: balances, the month's consumption by service, the month's transactions. */
export function reportHtml(input: {
  month: string;
  generatedAt: Date;
  subscriptions: { overview: SubscriptionCost; analysis: CostAnalysisValues; transactions: TransactionRecord[] }[];
}): string {
  const sections = input.subscriptions
    .map(({ overview, analysis, transactions }) => {
      const services = CONSUMPTION_CATEGORIES.filter((c) => analysis.categoryCents[c] !== 0)
        .map((c) => `<tr><td>${escapeHtml(label(c))}</td><td class="n">${usd(analysis.categoryCents[c])}</td></tr>`)
        .join('');
      const rows = transactions
        .map(
          (t) =>
            `<tr><td>${escapeHtml(t.at.toISOString().slice(0, 10))}</td><td>${escapeHtml(t.category)}</td><td>${escapeHtml(t.description)}</td><td class="n">${usd(t.amountCents)}</td><td>${escapeHtml(t.status)}</td></tr>`,
        )
        .join('');
      const months = analysis.lastTwelveMonths
        .map((m) => `<tr><td>${escapeHtml(m.month.slice(0, 7))}</td><td class="n">${usd(m.consumedCents)}</td></tr>`)
        .join('');
      return `<section>
<h2>${escapeHtml(overview.subscriptionName)}</h2>
<table><tbody>
<tr><th scope="row">Balance</th><td class="n">${usd(overview.balanceCents)}</td></tr>
<tr><th scope="row">Paid funds</th><td class="n">${usd(overview.paidFundsCents)}</td></tr>
<tr><th scope="row">Free credits</th><td class="n">${usd(overview.freeCreditsCents)}</td></tr>
<tr><th scope="row">Consumed this month</th><td class="n">${usd(overview.consumedCents)}</td></tr>
<tr><th scope="row">Forecast for the month</th><td class="n">${usd(overview.forecastCents)}</td></tr>
</tbody></table>
<h3>Consumption by service</h3>
${services ? `<table><thead><tr><th scope="col">Service</th><th scope="col" class="n">Cost</th></tr></thead><tbody>${services}</tbody></table>` : '<p>Usage cost for the current period is not available.</p>'}
<h3>Monthly consumption</h3>
<table><thead><tr><th scope="col">Month</th><th scope="col" class="n">Consumed</th></tr></thead><tbody>${months}</tbody></table>
<h3>Transactions of the period</h3>
${rows ? `<table><thead><tr><th scope="col">Date</th><th scope="col">Category</th><th scope="col">Description</th><th scope="col" class="n">Amount</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No transactions in this period.</p>'}
</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(PRODUCT.name)} subscription report ${escapeHtml(input.month)}</title>
<style>
body{font-family:Arial,Helvetica,sans-serif;color:#1f2937;background:#fff;margin:24px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #d1d5db}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0;min-width:320px}td,th{border:1px solid #d1d5db;padding:4px 8px;text-align:left}.n{text-align:right}
@media print{body{margin:0}section{break-inside:avoid}}
</style></head>
<body><h1>${escapeHtml(PRODUCT.name)} subscription report — ${escapeHtml(input.month)}</h1>
<p>Generated ${escapeHtml(input.generatedAt.toISOString().replace('T', ' ').slice(0, 16))} UTC. Amounts in US dollars.</p>
${sections || '<p>No subscriptions.</p>'}
</body></html>`;
}
