import PDFDocument from 'pdfkit';
import { PRODUCT } from '@kumo/contract';

/** Who issues the receipts and statements. */
export const SELLER = {
  name: PRODUCT.vendor,
  lines: ['100 Cloud Way, Suite 400', 'San Francisco, CA 94105, United States', 'billing@kumo.cloud'],
} as const;

export const INK = '#1a1f36';
export const MUTED = '#697386';

/**
 * An A4 page of the seller's, headed with the product's name and what the document is; `done` gives the file's bytes
 * once the caller has ended the document.
 */
export function openBillingPdf(info: { title: string; subject: string; createdAt?: Date }, documentName: string) {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: info.title, Author: SELLER.name, Subject: info.subject, ...(info.createdAt && { CreationDate: info.createdAt }) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(22).text(PRODUCT.shortName, left, 56);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(documentName, left, 84);
  return { doc, done, left, width };
}
