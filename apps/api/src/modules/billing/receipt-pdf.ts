import { PRODUCT, formatUsdCents } from '@kumo/contract';
import { formatDateTime } from '../../lib/dates.js';
import { INK, MUTED, SELLER, openBillingPdf } from './pdf-document.js';

export interface ReceiptData {
  receiptId: string;
  transactionId: string;
  paidAt: Date;
  amountCents: number;
  currency: string;
  paymentMethod: string;
  balanceAfterCents: number;
  customerName: string;
  customerEmail: string;
  subscriptionName: string;
  description: string;
  /** IANA zone to print the date in (the caller's userTimeZone); UTC when unknown. */
  timeZone?: string;
}

const RULE = '#e3e8ee';

/** A one-page PDF receipt for a card payment. */
export function renderReceiptPdf(data: ReceiptData): Promise<Buffer> {
  const { doc, done, left, width } = openBillingPdf(
    { title: `Receipt ${data.receiptId}`, subject: `Receipt for transaction ${data.transactionId}`, createdAt: data.paidAt },
    'Receipt',
  );
  const amount = formatUsdCents(data.amountCents);

  doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(`Receipt ID: ${data.receiptId}`, left, 56, { width, align: 'right' });
  doc.font('Helvetica').fillColor(MUTED).text(formatDateTime(data.paidAt, data.timeZone), left, 72, { width, align: 'right' });

  const blockTop = 130;
  const column = width / 2;
  doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED).text('FROM', left, blockTop);
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(SELLER.name, left, blockTop + 16);
  doc.font('Helvetica').fontSize(10).fillColor(INK);
  SELLER.lines.forEach((line, index) => doc.text(line, left, blockTop + 32 + index * 14));

  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(MUTED)
    .text('BILLED TO', left + column, blockTop);
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(data.customerName, left + column, blockTop + 16);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(data.customerEmail, left + column, blockTop + 32);
  doc.text(`Subscription: ${data.subscriptionName}`, left + column, blockTop + 46);

  const amountTop = 240;
  doc.rect(left, amountTop, width, 64).fill('#f6f8fb');
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text('Amount paid', left + 16, amountTop + 14);
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor(INK)
    .text(`${amount} ${data.currency}`, left + 16, amountTop + 30);

  const rows: [string, string][] = [
    ['Receipt ID', data.receiptId],
    ['Transaction ID', data.transactionId],
    ['Date paid', formatDateTime(data.paidAt, data.timeZone)],
    ['Description', data.description],
    ['Payment method', data.paymentMethod],
    ['Amount', amount],
    ['Balance after payment', formatUsdCents(data.balanceAfterCents)],
  ];
  let y = amountTop + 92;
  for (const [label, value] of rows) {
    doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(label, left, y);
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor(INK)
      .text(value, left + 150, y, { width: width - 150 });
    y += 22;
    doc
      .moveTo(left, y - 6)
      .lineTo(left + width, y - 6)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  }

  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(
      `Prepaid funds for ${PRODUCT.name}. Fees are non-refundable except as required by law. Questions: ${SELLER.lines[2]}.`,
      left,
      y + 24,
      { width },
    );

  doc.end();
  return done;
}
