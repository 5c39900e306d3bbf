import { CloudRequestError, layoutNodes, type CloudProvisioner, type ClusterDescription } from '../../src/adapters/cloud/index.js';

/** A finished deployment, running: what the cloud reports of an online cluster. */
export const runningCluster: ClusterDescription = {
  stackStatus: 'CREATE_COMPLETE',
  deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
  powerState: 'RUNNING',
  nodes: layoutNodes().map((node) => ({
    host: node.host,
    role: node.role,
    instanceType: node.instanceType,
    core: node.cores,
    nodeStatus: 'Running',
    serviceName: node.serviceName,
    serviceStatus: 'Online',
  })),
  managerUrl: 'https://km.example/',
  portalUrl: 'https://portal.example/',
};

export const stoppedCluster: ClusterDescription = { ...runningCluster, powerState: 'STOPPED', managerUrl: undefined, portalUrl: undefined };

/**
 * A cloud that counts what it is asked and reports what the test sets; `holdNextDescribe()` keeps the next report
 * waiting until the test lets it go, so a test can act while a reconcile is talking to the cloud.
 */
export class GatedCloud implements CloudProvisioner {
  readonly kind = 'aws' as const;
  description: ClusterDescription = runningCluster;
  /** describe() fails as a throttled cloud does (a retryable refusal). */
  describeFails = false;
  readonly calls: string[] = [];
  private held: { reached: () => void; gate: Promise<void> } | undefined;

  /** Resolves `reached` once a describe() waits at the gate; `release()` lets it answer. */
  holdNextDescribe() {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.held = { reached, gate };
    return { arrived, release };
  }

  async createCluster() {
    this.calls.push('create');
    return { stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/gated/1' };
  }
  async describe() {
    this.calls.push('describe');
    if (this.describeFails) throw new CloudRequestError('Rate exceeded', true);
    // What the cloud says is what it says when asked, not when its answer arrives.
    const description = this.description;
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.reached();
      await held.gate;
    }
    return description;
  }
  async stopCluster() {
    this.calls.push('stop');
  }
  async startCluster() {
    this.calls.push('start');
  }
  async resizeCluster() {
    this.calls.push('resize');
  }
  async deleteCluster() {
    this.calls.push('delete');
  }
}
