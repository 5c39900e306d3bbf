import { startSmtpSink } from '../smtp-sink.js';
import { ControlledPostgres } from './controlled-postgres.js';
import { freePort, queueMeteringRun, randomBetween, waitForJob } from './fault-kit.js';
import { checkMoneyInvariants, describeInvariants, type InvariantReport } from './money-invariants.js';
import { MoneyTraffic, type TrafficOptions } from './money-traffic.js';
import { PortalProcess, sleep } from './portal-process.js';

export interface ExternalKillOptions {
  /** SIGKILLs of PostgreSQL. */
  databaseKills: number;
  /** SIGKILLs of one of the portals (spread between the database kills). */
  portalKills: number;
  traffic: TrafficOptions;
  trafficBetweenKills: [number, number];
  /** How long PostgreSQL stays down after each kill. */
  downtime: [number, number];
  /** No new kill after this moment (epoch ms): the run ends by itself. */
  until?: number;
  log?: (line: string) => void;
}

export interface ExternalKillReport {
  databaseKills: number;
  portalKills: number;
  /** PostgreSQL killed → accepting connections again (crash recovery), per kill. */
  databaseRecoveryMs: number[];
  /** PostgreSQL accepting again → a surviving portal's /readyz answering 200, per portal and kill. */
  portalBackMs: number[];
  /** Portals spawned again (after their kill, or after they died) → ready. */
  portalRestartMs: number[];
  /** Portal processes that ended by themselves while PostgreSQL was killed (never expected). */
  portalDeaths: string[];
  invariantChecks: InvariantReport[];
  final: InvariantReport;
  traffic: MoneyTraffic;
  failures: string[];
}

/**
 * Two portals on one external PostgreSQL under money traffic; the PostgreSQL is killed with SIGKILL and
 * started again repeatedly, and now and then a portal too. The portals must stay up through a database
 * crash and answer /readyz again once it is back; no acknowledged write may be lost.
 */
export async function runExternalKills(options: ExternalKillOptions): Promise<ExternalKillReport> {
  const log = options.log ?? (() => undefined);
  const database = await ControlledPostgres.create();
  const sink = await startSmtpSink();
  const ports = [await freePort(), await freePort()];
  const spawnPortal = (index: number) => new PortalProcess({ port: ports[index]!, databaseUrl: database.url, smtpUrl: sink.url });
  const portals: PortalProcess[] = [];
  const traffic = new MoneyTraffic(() => portals.map((portal) => portal.base), sink.received, options.traffic);
  const report: Omit<ExternalKillReport, 'final'> = {
    databaseKills: 0,
    portalKills: 0,
    databaseRecoveryMs: [],
    portalBackMs: [],
    portalRestartMs: [],
    portalDeaths: [],
    invariantChecks: [],
    traffic,
    failures: [],
  };
  const restart = async (index: number, why: string) => {
    portals[index] = spawnPortal(index);
    try {
      report.portalRestartMs.push(await portals[index].ready());
    } catch (error) {
      report.failures.push(`portal ${index + 1} did not come back after ${why}: ${(error as Error).message.slice(0, 1_500)}`);
    }
  };
  /** A portal that ended without being killed here is a death: counted, then started again. */
  const reviveTheDead = async (when: string) => {
    for (const [index, portal] of portals.entries()) {
      if (portal.alive) continue;
      report.portalDeaths.push(`portal ${index + 1} (pid ${portal.pid}) ended with ${portal.ending} ${when}`);
      await restart(index, 'it ended');
    }
  };
  try {
    log(`PostgreSQL started in ${await database.start()} ms on port ${database.port}`);
    portals.push(spawnPortal(0), spawnPortal(1));
    // Both start at once on the fresh database, as two replicas of one deployment would.
    const ready = await Promise.allSettled(portals.map((portal) => portal.ready()));
    for (const [index, outcome] of ready.entries()) {
      if (outcome.status === 'fulfilled') continue;
      const reason = (outcome.reason as Error).message.split('\n').find((line) => line.includes('failed to start')) ?? 'see its output';
      report.failures.push(`portal ${index + 1} failed its first start beside the other portal: ${reason.slice(0, 300)}`);
      log(`portal ${index + 1} failed its first start beside the other: ${reason.slice(0, 300)}`);
      await restart(index, 'its failed first start');
    }
    log(
      `two portals ready: ${ready.map((outcome) => (outcome.status === 'fulfilled' ? `${outcome.value} ms` : 'failed, restarted')).join(', ')}`,
    );
    await traffic.start();

    const portalKillAt = new Set(
      Array.from({ length: options.portalKills }, (_, k) => Math.floor(((k + 0.5) * options.databaseKills) / options.portalKills)),
    );
    for (let kill = 0; kill < options.databaseKills && !traffic.exhausted && Date.now() < (options.until ?? Infinity); kill++) {
      await sleep(randomBetween(...options.trafficBetweenKills));
      await reviveTheDead('between database kills');
      if (portalKillAt.has(kill)) {
        const victim = kill % 2;
        await portals[victim]!.kill('SIGKILL');
        report.portalKills++;
        await restart(victim, 'its SIGKILL');
        log(`portal ${victim + 1} killed with SIGKILL, back in ${report.portalRestartMs.at(-1)} ms`);
        await sleep(randomBetween(...options.trafficBetweenKills));
      }
      if (kill % 3 === 1) {
        // Now and then in the middle of a metering run.
        const job = await queueMeteringRun(database.url).catch(() => undefined);
        if (job) await waitForJob(database.url, job, ['active', 'completed'], 5_000);
      }
      const killedAt = Date.now();
      await database.kill();
      report.databaseKills++;
      await sleep(randomBetween(...options.downtime));
      await database.start();
      const upAt = Date.now();
      report.databaseRecoveryMs.push(upAt - killedAt);
      await Promise.all(
        portals.map(async (portal, index) => {
          const back = await backOrDead(portal, 60_000);
          if (back === 'dead') {
            report.portalDeaths.push(`portal ${index + 1} (pid ${portal.pid}) ended with ${portal.ending} when PostgreSQL was killed`);
            const lines = portal.output.split('\n');
            const fatal = lines.filter((line) => /Unhandled|terminating connection|failed to start/.test(line));
            const cause = fatal.length > 0 ? fatal : lines.filter((line) => /error/i.test(line) && !/^\s+at /.test(line));
            log(`portal ${index + 1} died: ${cause.slice(0, 3).join(' | ').slice(0, 600)}`);
            await restart(index, 'it ended');
          } else if (back === 'stuck') {
            report.failures.push(`portal ${index + 1} still not ready a minute after PostgreSQL came back`);
          } else {
            report.portalBackMs.push(Date.now() - upAt);
          }
        }),
      );
      const invariants = await checkMoneyInvariants(database.url, [...traffic.confirmed]);
      report.invariantChecks.push(invariants);
      report.failures.push(...invariants.broken.map((line) => `after database kill ${kill + 1}: ${line}`));
      log(`database kill ${kill + 1}: recovered in ${report.databaseRecoveryMs.at(-1)} ms; ${describeInvariants(invariants)}`);
    }

    await traffic.stop();
    await reviveTheDead('at the end');
    const lastRun = await queueMeteringRun(database.url);
    if (!(await waitForJob(database.url, lastRun, ['completed'], 30_000))) report.failures.push('the last metering run did not complete');
    const final = await checkMoneyInvariants(database.url, [...traffic.confirmed]);
    report.failures.push(...final.broken.map((line) => `at the end: ${line}`));
    report.failures.push(...report.portalDeaths);
    log(`traffic: ${traffic.summary()}`);
    log(`at the end: ${describeInvariants(final)}`);
    return { ...report, final };
  } finally {
    await traffic.stop();
    await Promise.all(portals.map((portal) => portal.kill('SIGTERM')));
    await database.destroy();
    await sink.close();
  }
}

/** Polls a portal after its database came back: 'ready', 'dead' (the process ended) or 'stuck'. */
async function backOrDead(portal: PortalProcess, timeoutMs: number): Promise<'ready' | 'dead' | 'stuck'> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!portal.alive) return 'dead';
    if (await portal.isReady()) return 'ready';
    await sleep(5);
  }
  return portal.alive ? 'stuck' : 'dead';
}
