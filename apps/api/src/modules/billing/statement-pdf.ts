import {
  METERING_DIMENSION_LABELS,
  STATEMENT_TRANSFER_LABELS,
  STATEMENT_USAGE_LABELS,
  formatUsdCents,
  staffAdditionLabel,
} from '@kumo/contract';
import { INK, MUTED, openBillingPdf } from './pdf-document.js';
import { movementsCents, type StatementValues } from './statements.js';

/**
 * A monthly statement as a PDF: whose it is, the balance, each movement of the month (a section only when it has
 * lines) and the month's usage by cluster and service, with the debits of other months' hours apart.
 */
export function renderStatementPdf(s: StatementValues): Promise<Buffer> {
  const { doc, done, left, width } = openBillingPdf(
    { title: `Statement ${s.month}`, subject: `Statement of ${s.subscriptionName} for ${s.month}` },
    `Statement for ${s.month}`,
  );
  const line = (label: string, cents: number, bold = false) => {
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(10)
      .fillColor(INK)
      .text(label, left, y, { width: width - 120 });
    doc.text(formatUsdCents(cents), left + width - 120, y, { width: 120, align: 'right' });
    doc.moveDown(0.3);
  };
  const heading = (text: string) => {
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(9).fillColor(MUTED).text(text.toUpperCase(), left);
    doc.moveDown(0.3);
  };
  /** A heading and its lines, left out when there are none. */
  const section = <T>(title: string, lines: T[], print: (item: T) => void) => {
    if (lines.length === 0) return;
    heading(title);
    lines.forEach(print);
  };
  const day = (at: Date) => at.toISOString().slice(0, 10);

  doc.font('Helvetica').fontSize(10).fillColor(INK);
  doc.text(`Account owner: ${s.owner.name} <${s.owner.email}>`, left, 98);
  doc.text(`Subscription: ${s.subscriptionName}`, left, 112);
  doc.y = 140;

  line('Opening balance', s.openingCents, true);
  section('Top-ups', s.topUps, (t) => line(`${day(t.at)} ${t.automatic ? 'Automatic top-up' : 'Card top-up'} ${t.detail}`, t.amountCents));
  section('Staff additions', s.staffAdditions, (t) => line(`${day(t.at)} ${staffAdditionLabel(t.detail)}`, t.amountCents));
  section(
    'Free credits',
    [...s.creditsGranted.map((t) => ({ t, label: 'Granted' })), ...s.creditsExpired.map((t) => ({ t, label: 'Expired' }))],
    ({ t, label }) => line(`${day(t.at)} ${label}`, t.amountCents),
  );
  section('Refunds', s.refunds, (t) => line(`${day(t.at)} Refund to card`, t.amountCents));
  section('Transfers', s.transfers, (t) => line(`${day(t.at)} ${STATEMENT_TRANSFER_LABELS[t.direction]}`, t.amountCents));
  heading('Usage by cluster and service');
  if (s.usageByCluster.length === 0) doc.font('Helvetica').fontSize(10).fillColor(INK).text('None', left).moveDown(0.3);
  for (const cluster of s.usageByCluster) {
    line(cluster.clusterName, -cluster.amountCents, true);
    cluster.services.forEach((x) => line(`    ${METERING_DIMENSION_LABELS[x.dimension]}`, -x.amountCents));
  }
  line(STATEMENT_USAGE_LABELS.month(s.month), -s.usageCents, true);
  s.earlierUsage.forEach((u) => line(STATEMENT_USAGE_LABELS.earlier(u.month, s.month), -u.amountCents));
  if (s.postedLaterCents !== 0) line(STATEMENT_USAGE_LABELS.later(s.month), s.postedLaterCents);
  doc.moveDown(0.6);
  line('Movements', movementsCents(s), true);
  line('Closing balance', s.closingCents, true);
  doc.end();
  return done;
}
