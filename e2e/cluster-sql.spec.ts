import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { createSubscription, fillClusterDialog, fundByCard, signUpThroughTheUi, tabTo, turnOffAutoStop } from './support/flows.js';
import { checkAtBothWidths } from './support/screens.js';

// Every cluster holds the same sample dataset: 2,000 customers spread evenly over 5 regions.
const QUERY = `select r.region_name, count(*) as customers
from samples.customers c join samples.regions r using (region_id)
group by 1 order by 1`;

const sqlPanel = (page: Page) => page.getByRole('tabpanel', { name: 'SQL' });

test('a customer creates a cluster for this address only, queries the samples by keyboard, downloads the CSV and sees the query in the history', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signUpThroughTheUi(page, `sql.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page);
  await fundByCard(page);

  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await fillClusterDialog(page, dialog, 'Queried-One');
  await turnOffAutoStop(page, dialog);
  // Chosen by keyboard: Space on the radio picks it.
  const thisAddress = dialog.getByRole('radio', { name: 'This address only' });
  await thisAddress.focus();
  await page.keyboard.press('Space');
  await expect(thisAddress).toBeChecked();
  await expect(dialog.getByText(/your address as the portal sees it, may reach the cluster/)).toContainText('127.0.0.1');
  await dialog.getByRole('button', { name: 'Review and Deploy' }).press('Enter');
  await page.getByRole('dialog', { name: 'Review Cluster' }).getByRole('button', { name: 'Confirm' }).press('Enter');
  await expect(page).toHaveURL(/\/clusters\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('group', { name: 'Status' }).locator('[data-status]')).toHaveText(/Online/i, { timeout: 60_000 });

  // The access list holds the address the form showed, nothing else.
  await page.getByRole('tab', { name: 'Network Access' }).click();
  const accessList = page.getByRole('tabpanel', { name: 'Network Access' });
  await expect(accessList.getByRole('textbox', { name: 'Address or range 1' })).toHaveValue('127.0.0.1/32');
  await expect(accessList.getByRole('textbox', { name: 'Address or range 2' })).toHaveCount(0);

  // From the Network Access tab to SQL with the arrow keys, into the editor with Tab.
  await page.getByRole('tab', { name: 'Network Access' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'SQL' })).toHaveAttribute('aria-selected', 'true');
  const editor = sqlPanel(page).getByRole('textbox', { name: 'SQL query' });
  await tabTo(page, editor);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(QUERY);
  await page.keyboard.press('Control+Enter');

  const result = sqlPanel(page).getByRole('table', { name: 'Query result' });
  await expect(sqlPanel(page).getByText(/^5 rows in \d+ ms$/)).toBeVisible();
  await expect(result.getByRole('columnheader')).toHaveText(['region_name VARCHAR', 'customers BIGINT']);
  await expect(result.getByRole('row', { name: 'Africa 400' })).toBeVisible();
  await expect(result.getByRole('row')).toHaveCount(6);

  const downloadButton = sqlPanel(page).getByRole('button', { name: 'Download CSV' });
  await tabTo(page, downloadButton);
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('query-result.csv');
  const csv = (await readFile(await download.path(), 'utf8')).split('\r\n');
  expect(csv[0]).toBe('region_name,customers');
  expect(csv).toContain('Africa,400');
  expect(csv).toHaveLength(7); // the header, five rows and the final line break

  // The history names the query, who ran it and from where.
  const history = sqlPanel(page).getByRole('table', { name: 'Query history' });
  const entry = history.getByRole('row').filter({ hasText: 'from samples.customers c join samples.regions r' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('OK');
  await expect(entry).toContainText('Console');
  await expect(entry).toContainText('127.0.0.1');

  await checkAtBothWidths(page, sqlPanel(page), 'the SQL tab with a result');

  // A query the engine cannot run: its own message under the editor, and a FAILED line in the history.
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('select * from samples.no_such_table');
  await page.keyboard.press('Control+Enter');
  await expect(sqlPanel(page).getByRole('alert')).toContainText('no_such_table');
  await expect(result).toHaveCount(0);
  const failed = history.getByRole('row').filter({ hasText: 'select * from samples.no_such_table' });
  await expect(failed).toContainText('FAILED');
  await checkAtBothWidths(page, sqlPanel(page), 'the SQL tab with an engine error');
});
