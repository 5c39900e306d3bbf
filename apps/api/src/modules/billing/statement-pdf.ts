import { METERING_DIMENSION_LABELS, STATEMENT_TRANSFER_LABELS, formatUsdCents } from '@kumo/contract';
import { INK, MUTED, openBillingPdf } from './pdf-document.js';
import { movementsCents, type StatementValues } from './statements.js';

/** A monthly statement as a PDF: the balance, each movement of the month and the usage by cluster and service. */
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
  const day = (at: Date) => at.toISOString().slice(0, 10);

  doc.text(`Subscription: ${s.subscriptionName}`, left, 98);
  doc.y = 130;

  line('Opening balance', s.openingCents, true);
  heading('Top-ups');
  s.topUps.forEach((t) => line(`${day(t.at)} ${t.automatic ? 'Automatic top-up' : 'Card top-up'} ${t.detail}`, t.amountCents));
  heading('Staff additions');
  s.staffAdditions.forEach((t) => line(`${day(t.at)} ${t.detail}`, t.amountCents));
  heading('Free credits');
  s.creditsGranted.forEach((t) => line(`${day(t.at)} Granted`, t.amountCents));
  s.creditsExpired.forEach((t) => line(`${day(t.at)} Expired`, t.amountCents));
  if (s.refunds.length > 0) {
    heading('Refunds');
    s.refunds.forEach((t) => line(`${day(t.at)} Refund to card`, t.amountCents));
  }
  if (s.transfers.length > 0) {
    heading('Transfers');
    s.transfers.forEach((t) => line(`${day(t.at)} ${STATEMENT_TRANSFER_LABELS[t.direction]}`, t.amountCents));
  }
  heading('Usage by cluster and service');
  for (const cluster of s.usageByCluster) {
    line(cluster.clusterName, -cluster.amountCents, true);
    cluster.services.forEach((x) => line(`    ${METERING_DIMENSION_LABELS[x.dimension]}`, -x.amountCents));
  }
  line('Usage total', -s.usageCents, true);
  doc.moveDown(0.6);
  line('Movements', movementsCents(s), true);
  line('Closing balance', s.closingCents, true);
  doc.end();
  return done;
}
