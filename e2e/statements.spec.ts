import { readFile } from 'node:fs/promises';
import { expect, test, type Locator } from '@playwright/test';
import { pdfText } from '../apps/api/test/support/pdf-text.js';
import { createSubscription, openAddFunds, payOnTheSandbox, signUpThroughTheUi } from './support/flows.js';
import { withinViewport } from './support/layout.js';
import { checkAtBothWidths } from './support/screens.js';

/** "-$1,234.56" → -123456. */
const centsOf = (text: string) => {
  const amount = /(-?)\$([\d,]+)\.(\d\d)/.exec(text);
  expect(amount, `an amount in "${text}"`).not.toBeNull();
  const [, sign, whole, fraction] = amount!;
  return (sign ? -1 : 1) * (Number(whole!.replaceAll(',', '')) * 100 + Number(fraction));
};

/** The amount a statement's labelled total shows, as its text and in cents. */
async function totalOf(statement: Locator, label: string): Promise<{ text: string; cents: number }> {
  const text = ((await statement.getByRole('group', { name: label }).textContent()) ?? '').replace(label, '').trim();
  return { text, cents: centsOf(text) };
}

test('a customer tops up, reads the month’s statement on the Statements tab and finds the same totals in its PDF', async ({ page }) => {
  // Sign-up, checkout and four accessibility passes on a machine shared with other runs.
  test.setTimeout(180_000);
  await signUpThroughTheUi(page, `statements.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page, 'Ledgers');

  // $40 through the sandbox checkout, on top of the $500 sign-up credits.
  await openAddFunds(page, '40');
  await payOnTheSandbox(page, '4242 4242 4242 4242');
  const result = page.getByRole('dialog', { name: 'Add Funds' });
  await expect(result.getByText('Payment successful')).toBeVisible({ timeout: 30_000 });
  await result.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Your Balance' })).toContainText('$540.00');

  // The current month is listed; View shows its totals, which add up, and the top-up.
  await page.getByRole('tab', { name: 'Statements' }).click();
  const month = new Date().toISOString().slice(0, 7);
  const months = page.getByRole('table', { name: 'Monthly statements' });
  await expect(months.getByRole('row').nth(1)).toContainText(month);
  await months.getByRole('button', { name: `View ${month}` }).click();
  const statement = page.getByRole('region', { name: `Statement for ${month}` });
  await expect(statement).toBeVisible();
  const opening = await totalOf(statement, 'Opening balance');
  const movements = await totalOf(statement, 'Movements');
  const closing = await totalOf(statement, 'Closing balance');
  expect(opening.cents + movements.cents).toBe(closing.cents);
  expect(closing.text).toBe('$540.00');
  const topUp = statement.getByRole('table', { name: `Movements in ${month}` }).getByRole('row', { name: /Card top-up KC-\d{8}/ });
  await expect(topUp).toContainText('$40.00');
  const receiptId = /KC-\d{8}/.exec((await topUp.textContent()) ?? '')![0];

  // The PDF of the same month prints the same opening, top-up and closing amounts.
  const [download] = await Promise.all([page.waitForEvent('download'), months.getByRole('button', { name: `PDF of ${month}` }).click()]);
  expect(download.suggestedFilename()).toBe(`statement-${month}.pdf`);
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const lines = pdfText(pdf).split('\n');
  const amountAfter = (label: string | RegExp) => {
    const at = lines.findIndex((line) => (typeof label === 'string' ? line === label : label.test(line)));
    expect(at, `"${label}" in the PDF:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
    return lines[at + 1];
  };
  expect(lines).toContain(`Statement for ${month}`);
  expect(amountAfter('Opening balance')).toBe(opening.text);
  expect(amountAfter(new RegExp(`Card top-up ${receiptId}$`))).toBe('$40.00');
  expect(amountAfter('Movements')).toBe(movements.text);
  expect(amountAfter('Closing balance')).toBe(closing.text);

  const amount = topUp.getByRole('cell', { name: '$40.00' });
  await checkAtBothWidths(page, page.getByRole('tabpanel', { name: 'Statements' }), 'statements', (width) =>
    withinViewport(page, amount, `the top-up's amount at ${width} px`),
  );
});
