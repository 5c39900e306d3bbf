import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startSmtpSink } from '../smtp-sink.js';
import {
  embeddedServer,
  embeddedUrl,
  freePort,
  freshDataDir,
  isRunning,
  queueMeteringRun,
  randomBetween,
  waitForJob,
} from './fault-kit.js';
import { checkMoneyInvariants, describeInvariants, type InvariantReport } from './money-invariants.js';
import { MoneyTraffic, type TrafficOptions } from './money-traffic.js';
import { PortalProcess, sleep } from './portal-process.js';

/** Where the kill landed: under plain money traffic, just after a metering run was queued, or during start-up. */
export type KillMoment = 'traffic' | 'metering' | 'start-up';

export interface KillRecord {
  moment: KillMoment;
  /** From spawning the next portal to its /readyz. */
  restartMs: number;
  /** The PostgreSQL the killed portal left running was gone once the next portal was ready (true when none was left). */
  leftoverStopped: boolean;
  invariants: InvariantReport;
}

export interface EmbeddedKillReport {
  kills: KillRecord[];
  secondPortalRefused: boolean;
  secondPortalMessage: string;
  /** The last portal's SIGTERM: exit 0 and no postmaster.pid left. */
  cleanShutdown: boolean;
  final: InvariantReport;
  traffic: MoneyTraffic;
  /** Everything that went wrong, one line each; empty on success. */
  failures: string[];
}

export interface EmbeddedKillOptions {
  kills: number;
  traffic: TrafficOptions;
  /** Money traffic between one restart and the next kill, in ms. */
  trafficBetweenKills: [number, number];
  /** No new kill after this moment (epoch ms): the run ends by itself. */
  until?: number;
  log?: (line: string) => void;
}

const REFUSAL = /is in use: another Kumo Cloud portal \(pid \d+\) runs its PostgreSQL/;

/**
 * The embedded default killed with SIGKILL again and again under money traffic: each kill at a random moment
 * (plain traffic, a metering run just queued, or a portal still starting), then a restart on the same DATA_DIR,
 * which must shut the orphaned PostgreSQL down and come back healthy with every invariant intact. Once, while
 * a portal runs, a second portal on the same DATA_DIR must be refused with a clear message.
 */
export async function runEmbeddedKills(options: EmbeddedKillOptions): Promise<EmbeddedKillReport> {
  const log = options.log ?? (() => undefined);
  const dataDir = freshDataDir('kumo-fault-');
  const sink = await startSmtpSink();
  const port = await freePort();
  const failures: string[] = [];
  let portal = new PortalProcess({ port, dataDir, smtpUrl: sink.url });
  const traffic = new MoneyTraffic(() => [portal.base], sink.received, options.traffic);
  try {
    log(`first start: ready in ${await portal.ready()} ms`);
    await traffic.start();

    const second = await refuseSecondPortal(dataDir, sink.url);
    if (!second.refused) failures.push(`a second portal on the same DATA_DIR was not refused as expected: ${second.message}`);
    log(`second portal on the same DATA_DIR: ${second.refused ? 'refused' : 'NOT refused'}: ${second.message}`);

    const kills: KillRecord[] = [];
    const moments: KillMoment[] = ['traffic', 'metering', 'start-up'];
    for (let index = 0; index < options.kills && !traffic.exhausted && Date.now() < (options.until ?? Infinity); index++) {
      const moment = moments[index % moments.length]!;
      // The traffic ran all through the refusal check: the first kill need not wait longer.
      if (index > 0) await sleep(randomBetween(...options.trafficBetweenKills));
      const leftovers = [embeddedServer(dataDir)];
      if (moment === 'metering') {
        // Killed once a worker has taken the run (pg-boss polls every second), a moment later: mid-run or just after.
        const url = embeddedUrl(dataDir);
        const job = await queueMeteringRun(url);
        await waitForJob(url, job, ['active', 'completed'], 5_000);
        await sleep(randomBetween(0, 300));
      }
      await portal.kill('SIGKILL');
      if (moment === 'start-up') {
        // The next portal dies too, somewhere between spawning and serving: settling the leftover, recovering, migrating.
        const starting = new PortalProcess({ port, dataDir, smtpUrl: sink.url });
        portal = starting;
        await sleep(randomBetween(100, 2_500));
        await starting.kill('SIGKILL');
        leftovers.push(embeddedServer(dataDir));
      }
      portal = new PortalProcess({ port, dataDir, smtpUrl: sink.url });
      let restartMs: number;
      try {
        restartMs = await portal.ready();
      } catch (error) {
        failures.push(`restart after kill ${index + 1} (${moment}) failed: ${(error as Error).message.slice(0, 2_000)}`);
        break;
      }
      const current = embeddedServer(dataDir)?.pid;
      const orphans = leftovers.filter((server) => server && server.pid !== current && isRunning(server.pid)).map((server) => server!.pid);
      const leftoverStopped = orphans.length === 0;
      if (!leftoverStopped)
        failures.push(`kill ${index + 1}: the orphaned PostgreSQL (pid ${orphans.join(', ')}) still runs after the restart`);
      const invariants = await checkMoneyInvariants(embeddedUrl(dataDir), [...traffic.confirmed]);
      failures.push(...invariants.broken.map((line) => `after kill ${index + 1} (${moment}): ${line}`));
      kills.push({ moment, restartMs, leftoverStopped, invariants });
      log(`kill ${index + 1} (${moment}): healthy again in ${restartMs} ms; ${describeInvariants(invariants)}`);
    }

    await traffic.stop();
    // One last metering run to its end, so the final check always covers charged hours.
    const lastRun = await queueMeteringRun(embeddedUrl(dataDir));
    if (!(await waitForJob(embeddedUrl(dataDir), lastRun, ['completed'], 30_000))) failures.push('the last metering run did not complete');
    const final = await checkMoneyInvariants(embeddedUrl(dataDir), [...traffic.confirmed]);
    failures.push(...final.broken.map((line) => `at the end: ${line}`));
    log(`traffic: ${traffic.summary()}`);
    log(`at the end: ${describeInvariants(final)}`);

    await portal.kill('SIGTERM');
    const cleanShutdown = portal.ending === 'exit 0' && !existsSync(join(dataDir, 'pg', 'postmaster.pid'));
    if (!cleanShutdown) failures.push(`the last portal's SIGTERM ended it with ${portal.ending}, postmaster.pid left: ${!cleanShutdown}`);
    return {
      kills,
      secondPortalRefused: second.refused,
      secondPortalMessage: second.message,
      cleanShutdown,
      final,
      traffic,
      failures,
    };
  } finally {
    await traffic.stop();
    await portal.kill('SIGKILL');
    // The PostgreSQL of a portal that failed mid-way: stop it so nothing is left running.
    const left = embeddedServer(dataDir);
    if (left && isRunning(left.pid)) process.kill(left.pid, 'SIGINT');
    for (let waited = 0; left && isRunning(left.pid) && waited < 30_000; waited += 100) await sleep(100);
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts a second portal on a DATA_DIR a portal serves; it must exit with the clear "in use" message. */
async function refuseSecondPortal(dataDir: string, smtpUrl: string): Promise<{ refused: boolean; message: string }> {
  const second = new PortalProcess({ port: await freePort(), dataDir, smtpUrl });
  const ended = await Promise.race([second.exited.then(() => true), sleep(60_000).then(() => false)]);
  if (!ended) {
    await second.kill('SIGKILL');
    return { refused: false, message: 'it was still running after a minute' };
  }
  const message = REFUSAL.exec(second.output)?.[0] ?? second.output.trim().slice(0, 500);
  return { refused: second.ending === 'exit 1' && REFUSAL.test(second.output), message: `${second.ending}: ${message}` };
}
