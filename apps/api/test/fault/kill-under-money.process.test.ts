import { describe, expect, it } from 'vitest';
import { runEmbeddedKills } from '../support/fault/embedded-kills.js';

// The built portal on the embedded default, killed with SIGKILL four times under money traffic over HTTP
// (sign-ups, sandbox card top-ups, clusters charged by the hour): after every restart the balances equal
// their ledgers, every confirmed top-up is in the ledger once and no cluster hour is charged twice.
// `npm run soak` runs the same with more kills, and with an external PostgreSQL killed under two portals.

describe('the embedded portal killed with SIGKILL in the middle of money traffic', () => {
  it('restarts healthy every time and loses or doubles no money', { timeout: 240_000 }, async () => {
    const lines: string[] = [];
    const started = Date.now();
    const report = await runEmbeddedKills({
      kills: 4,
      traffic: { clients: 4, customers: 3, signUpEvery: 30, maxRequests: 50_000 },
      trafficBetweenKills: [1_000, 3_000],
      log: (line) => lines.push(`${((Date.now() - started) / 1000).toFixed(1)} s  ${line}`),
    });
    const story = lines.join('\n');
    console.log(story);

    expect(report.failures, story).toEqual([]);
    expect(report.kills.map((kill) => kill.moment)).toEqual(['traffic', 'metering', 'start-up', 'traffic']);
    expect(
      report.kills.every((kill) => kill.leftoverStopped),
      story,
    ).toBe(true);
    expect(report.secondPortalRefused, report.secondPortalMessage).toBe(true);
    expect(report.cleanShutdown, story).toBe(true);
    // The traffic did what it is for: top-ups confirmed before and between kills, hours charged through the ledger.
    expect(report.final.confirmedTopUps, story).toBeGreaterThanOrEqual(20);
    expect(report.final.chargedHours, story).toBeGreaterThan(0);
    expect(report.final.broken).toEqual([]);
  });
});
