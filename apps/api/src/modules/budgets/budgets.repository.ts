/** SQL for budgets and their alerts. Every method takes an optional transaction. */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { BudgetAlertKind } from '@kumo/contract';
import type { DbOrTx } from '../../db/client.js';
import { accountMemberDirectory, userDirectory } from '../auth/index.js';
import { budgetAlerts, budgets } from './budgets.schema.js';

export interface BudgetRow {
  subscriptionId: string;
  accountId: string;
  monthlyAmountCents: number;
  thresholds: number[];
  alertOnForecast: boolean;
  stopClustersAtLimit: boolean;
}

export interface AlertRow {
  threshold: number;
  kind: BudgetAlertKind;
  sentAt: Date;
}

/** One alert to record: a threshold of a kind crossed in a month. */
export interface AlertKey {
  threshold: number;
  kind: BudgetAlertKind;
}

const budgetColumns = {
  subscriptionId: budgets.subscriptionId,
  accountId: budgets.accountId,
  monthlyAmountCents: budgets.monthlyAmountCents,
  thresholds: budgets.thresholds,
  alertOnForecast: budgets.alertOnForecast,
  stopClustersAtLimit: budgets.stopClustersAtLimit,
};

export function createBudgetsRepository(db: DbOrTx) {
  return {
    async find(subscriptionId: string, tx: DbOrTx = db): Promise<BudgetRow | undefined> {
      const [row] = await tx.select(budgetColumns).from(budgets).where(eq(budgets.subscriptionId, subscriptionId)).limit(1);
      return row;
    },

    async ofAccount(accountId: string, tx: DbOrTx = db): Promise<BudgetRow[]> {
      return tx.select(budgetColumns).from(budgets).where(eq(budgets.accountId, accountId)).orderBy(asc(budgets.subscriptionId));
    },

    async save(row: BudgetRow, now: Date, tx: DbOrTx = db): Promise<void> {
      const values = { ...row, updatedAt: now };
      await tx
        .insert(budgets)
        .values(values)
        .onConflictDoUpdate({
          target: budgets.subscriptionId,
          set: {
            monthlyAmountCents: row.monthlyAmountCents,
            thresholds: row.thresholds,
            alertOnForecast: row.alertOnForecast,
            stopClustersAtLimit: row.stopClustersAtLimit,
            updatedAt: now,
          },
        });
    },

    /** Removes the budget and its alerts; false when there was none. */
    async remove(subscriptionId: string, tx: DbOrTx = db): Promise<boolean> {
      await tx.delete(budgetAlerts).where(eq(budgetAlerts.subscriptionId, subscriptionId));
      const removed = await tx.delete(budgets).where(eq(budgets.subscriptionId, subscriptionId)).returning({ id: budgets.subscriptionId });
      return removed.length > 0;
    },

    async alertsOf(subscriptionId: string, month: string, tx: DbOrTx = db): Promise<AlertRow[]> {
      const rows = await tx
        .select({ threshold: budgetAlerts.threshold, kind: budgetAlerts.kind, sentAt: budgetAlerts.sentAt })
        .from(budgetAlerts)
        .where(and(eq(budgetAlerts.subscriptionId, subscriptionId), eq(budgetAlerts.month, month)))
        .orderBy(asc(budgetAlerts.sentAt), asc(budgetAlerts.kind), asc(budgetAlerts.threshold));
      return rows.map((row) => ({ ...row, kind: row.kind as BudgetAlertKind }));
    },

    /** Records the alerts not recorded yet and returns those: each exactly once, however many runs claim it at once. */
    async claim(subscriptionId: string, month: string, alerts: AlertKey[], now: Date, tx: DbOrTx = db): Promise<AlertKey[]> {
      if (alerts.length === 0) return [];
      const claimed = await tx
        .insert(budgetAlerts)
        .values(alerts.map((alert) => ({ subscriptionId, month, threshold: alert.threshold, kind: alert.kind, sentAt: now })))
        .onConflictDoNothing()
        .returning({ threshold: budgetAlerts.threshold, kind: budgetAlerts.kind });
      return claimed.map((row) => ({ threshold: row.threshold, kind: row.kind as BudgetAlertKind }));
    },

    /** Forgets this month's alerts of a kind at the given thresholds, so they can fire again (a raised budget re-arms them). */
    async rearm(subscriptionId: string, month: string, kind: BudgetAlertKind, thresholds: number[], tx: DbOrTx = db): Promise<void> {
      if (thresholds.length === 0) return;
      await tx
        .delete(budgetAlerts)
        .where(
          and(
            eq(budgetAlerts.subscriptionId, subscriptionId),
            eq(budgetAlerts.month, month),
            eq(budgetAlerts.kind, kind),
            inArray(budgetAlerts.threshold, thresholds),
          ),
        );
    },

    /** The e-mails of the account's owner and admins, the owner first. */
    async recipients(accountId: string, tx: DbOrTx = db): Promise<{ userId: string; email: string }[]> {
      const rows = await tx
        .select({ userId: userDirectory.id, email: userDirectory.email, role: accountMemberDirectory.role })
        .from(accountMemberDirectory)
        .innerJoin(userDirectory, eq(userDirectory.id, accountMemberDirectory.userId))
        .where(
          and(eq(accountMemberDirectory.accountId, accountId), inArray(accountMemberDirectory.role, ['ACCOUNT_OWNER', 'ACCOUNT_ADMIN'])),
        )
        .orderBy(asc(accountMemberDirectory.createdAt), asc(userDirectory.email));
      return [...rows.filter((r) => r.role === 'ACCOUNT_OWNER'), ...rows.filter((r) => r.role !== 'ACCOUNT_OWNER')].map(
        ({ userId, email }) => ({
          userId,
          email,
        }),
      );
    },
  };
}
export type BudgetsRepository = ReturnType<typeof createBudgetsRepository>;
