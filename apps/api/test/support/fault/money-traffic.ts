import { randomBytes } from 'node:crypto';
import type { ReceivedMail } from '../smtp-sink.js';
import {
  createCluster,
  createSubscription,
  signIn,
  topUp,
  type ConfirmedTopUp,
  type RequestCounter,
  type Session,
} from './customer-client.js';
import { sleep } from './portal-process.js';

interface Customer {
  email: string;
  session: Session;
  subscriptionId: string;
}

export interface TrafficOptions {
  /** Concurrent clients. */
  clients: number;
  /** Customers signed up before top-ups start; more sign up along the way. */
  customers: number;
  /** One action in this many is a new customer (sign-up, subscription, cluster). */
  signUpEvery: number;
  /** The traffic stops by itself after this many requests. */
  maxRequests: number;
}

/**
 * Money traffic over HTTP against one or more portals: customers sign up (their first subscription holds
 * the $500 sign-up credits) and deploy a cluster charged by the hour, and clients top subscriptions up by
 * sandbox card in a loop. Every top-up the portal confirmed is recorded; a portal that does not answer
 * (killed, restarting) only slows the clients down.
 */
export class MoneyTraffic implements RequestCounter {
  requests = 0;
  readonly confirmed: ConfirmedTopUp[] = [];
  readonly customers: Customer[] = [];
  clustersCreated = 0;
  /** Top-up attempts that ended without a confirmation, by the status of the step that failed (0: no answer). */
  readonly unconfirmed = new Map<number, number>();
  private running = false;
  private loops: Promise<void>[] = [];
  private turn = 0;

  constructor(
    private readonly bases: () => string[],
    private readonly mails: ReceivedMail[],
    private readonly options: TrafficOptions,
  ) {}

  /** The next portal, taking turns: with two portals each client's calls alternate between them. */
  private base(): string {
    const list = this.bases();
    return list[this.turn++ % list.length]!;
  }

  get exhausted(): boolean {
    return this.requests >= this.options.maxRequests;
  }

  /** Signs up the first customers (retrying through restarts), then starts the clients. */
  async start(): Promise<void> {
    this.running = true;
    for (let attempt = 0; this.customers.length < this.options.customers && attempt < this.options.customers * 20; attempt++) {
      if (!(await this.signUpCustomer())) await sleep(200);
    }
    if (this.customers.length === 0) throw new Error('no customer could sign up');
    this.loops = Array.from({ length: this.options.clients }, (_, client) => this.clientLoop(client));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async clientLoop(client: number): Promise<void> {
    for (let round = 0; this.running && !this.exhausted; round++) {
      const progressed =
        round % this.options.signUpEvery === this.options.signUpEvery - 1
          ? await this.signUpCustomer()
          : await this.topUpOnce(client, round);
      // A portal that does not answer: wait a little instead of spinning on refused connections.
      if (!progressed) await sleep(100 + Math.random() * 200);
    }
  }

  private async signUpCustomer(): Promise<boolean> {
    const email = `fault-${randomBytes(5).toString('hex')}@example.com`;
    const base = this.base();
    const session = await signIn(this, base, this.mails, email, 'Fay Fault');
    if (!session) return false;
    const subscriptionId = await createSubscription(this, base, session, `Fault ${randomBytes(3).toString('hex')}`);
    if (!subscriptionId) return false;
    this.customers.push({ email, session, subscriptionId });
    if (await createCluster(this, this.base(), session, subscriptionId, `fault-${randomBytes(3).toString('hex')}`)) this.clustersCreated++;
    return true;
  }

  private async topUpOnce(client: number, round: number): Promise<boolean> {
    const customer = this.customers[(client + round) % this.customers.length]!;
    // 10.00 to 59.99: amounts differ, so a top-up credited with another's amount shows.
    const cents = 1000 + Math.floor(Math.random() * 5000);
    const outcome = await topUp(this, this.base(), customer.session, customer.subscriptionId, cents);
    if ('checkoutSessionId' in outcome) {
      this.confirmed.push(outcome);
      return true;
    }
    this.unconfirmed.set(outcome.failedStatus, (this.unconfirmed.get(outcome.failedStatus) ?? 0) + 1);
    if (outcome.failedStatus === 401) await this.renewSession(customer);
    return outcome.failedStatus !== 0 && outcome.failedStatus < 500;
  }

  /** Access tokens last 15 minutes: a long soak signs its customers in again. */
  private async renewSession(customer: Customer): Promise<void> {
    const session = await signIn(this, this.base(), this.mails, customer.email);
    if (session) customer.session = session;
  }

  summary(): string {
    const failed = [...this.unconfirmed].map(([status, count]) => `${status === 0 ? 'no answer' : status}: ${count}`).join(', ');
    return (
      `${this.requests} requests, ${this.customers.length} customers, ${this.clustersCreated} clusters, ` +
      `${this.confirmed.length} confirmed top-ups, unconfirmed attempts {${failed}}`
    );
  }
}
