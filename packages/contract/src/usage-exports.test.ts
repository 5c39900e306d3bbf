import { describe, expect, it } from 'vitest';
import {
  consumptionExportQuerySchema,
  isCalendarDay,
  staffAdditionLabel,
  statementQuerySchema,
  USAGE_EXPORT_MESSAGES,
} from './usage-exports.js';

describe('calendar days of the usage exports', () => {
  it('takes a day only when the calendar has it', () => {
    for (const day of ['2024-02-29', '2026-12-31', '0001-01-01']) expect(isCalendarDay(day), day).toBe(true);
    for (const day of ['2024-13-45', '2024-00-10', '9999-99-99', '2023-02-29', '2026-04-31']) expect(isCalendarDay(day), day).toBe(false);
  });

  it('refuses a range with a day that is not one, naming the field', () => {
    for (const [from, to, field] of [
      ['2024-13-45', '2024-12-01', 'from'],
      ['2024-00-10', '2024-12-01', 'from'],
      ['9999-99-99', '2024-12-01', 'from'],
      ['2024-12-01', '2024-13-45', 'to'],
      ['2024-12-01', '2024-00-10', 'to'],
      ['2024-12-01', '9999-99-99', 'to'],
    ]) {
      const parsed = consumptionExportQuerySchema.safeParse({ from, to });
      expect(parsed.success, `${from}..${to}`).toBe(false);
      expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        [field, USAGE_EXPORT_MESSAGES.dayFormat],
      ]);
    }
  });

  it('takes a statement month only when the calendar has it', () => {
    expect(statementQuerySchema.safeParse({ month: '2026-07' }).success).toBe(true);
    for (const month of ['2026-13', '2026-00', '9999-99', '2026-7'])
      expect(statementQuerySchema.safeParse({ month }).success, month).toBe(false);
  });
});

describe("the statement's words for what staff added", () => {
  it('calls a maintenance refund a service credit and keeps every other category its words', () => {
    expect(staffAdditionLabel('REFUND_MAINTENANCE_COST')).toBe('Service credit from Kumo Cloud');
    expect(staffAdditionLabel('SERVICE_CREDIT')).toBe('Service Credit from Kumo Cloud');
    expect(staffAdditionLabel('BILLING_ADJUSTMENT')).toBe('Billing Adjustment from Kumo Cloud');
    expect(staffAdditionLabel('SOMETHING_NEW')).toBe('Funds from Kumo Cloud');
  });
});
