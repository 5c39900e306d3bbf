/**
 * The AWS driver of the cloud port: one CloudFormation stack per cluster, created from the
 * deployment template, in the cluster's region; start and stop act on the stack's EC2 instances.
 * Credentials come from the SDK's standard chain (environment, profile, instance role...); the
 * region is the cluster's, or AWS_REGION when a call does not name one; AWS_ENDPOINT_URL points
 * the SDK elsewhere (a local emulator). Every call either starts work in AWS or reads its state:
 * nothing is kept in memory, so a portal restart loses nothing.
 */
import type * as CloudFormationSdk from '@aws-sdk/client-cloudformation';
import type { CloudFormationClient, Parameter, Stack } from '@aws-sdk/client-cloudformation';
import type * as Ec2Sdk from '@aws-sdk/client-ec2';
import type { EC2Client, Instance, InstanceStatus } from '@aws-sdk/client-ec2';
import { FAILED_STACK_STATUSES } from '@kumo/contract';
import type { ClusterDescription, CloudProvisioner, CreateClusterInput, QueryEngineShape } from '../cloud-provisioner.js';
import { CloudRequestError } from '../cloud-provisioner.js';
import {
  TAG_KEYS,
  TEMPLATE_OUTPUTS,
  TEMPLATE_PARAMETERS,
  TemplateSettingsError,
  generateClusterTemplate,
  safeTagValue,
} from '../template/cluster-template.js';
import { errorName, isStackMissing, toCloudError } from './aws-errors.js';
import { updateStackShape } from './aws-resize.js';
import { applySecurityGroupIngress } from './aws-security-group.js';
import { createAwsSqlClient } from './aws-sql-client.js';
import { describeFromAws, mapStackStatus } from './aws-status.js';

export interface AwsProvisionerOptions {
  /** ARN of the versioned bucket in a backup region that receives replicated backups; `{region}` is replaced. */
  backupBucketArnPattern?: string;
  /** EC2 key pair for operator SSH access to the nodes (optional). */
  keyName?: string;
  /** Addresses allowed to reach the Web Portal and Kumo Manager (default: anywhere). */
  ingressCidr?: string;
  /**
   * The portal's own outbound addresses: let in beside a cluster's network access list, so its console queries and
   * activity reads reach the cluster's SQL endpoint.
   */
  portalCidr?: string;
}

/**
 * The SDK is loaded on first use: a portal on the simulated cloud (the default) never pays for loading it.
 * Tests mock the client classes of these same modules with aws-sdk-client-mock.
 */
interface AwsSdk {
  cf: typeof CloudFormationSdk;
  ec2: typeof Ec2Sdk;
}
let sdkLoading: Promise<AwsSdk> | undefined;
const loadSdk = () =>
  (sdkLoading ??= Promise.all([import('@aws-sdk/client-cloudformation'), import('@aws-sdk/client-ec2')]).then(([cf, ec2]) => ({
    cf,
    ec2,
  })));

interface AwsClients {
  sdk: AwsSdk;
  cloudFormation: CloudFormationClient;
  ec2: EC2Client;
}

export const DEFAULT_BACKUP_BUCKET_ARN_PATTERN = 'arn:aws:s3:::kumo-backup-{region}';

const ANYWHERE = '0.0.0.0/0';
/** Matches no sender: a stack whose list holds no IPv4 range is made closed, and opened to its list once it stands. */
const NOBODY = '0.0.0.0/32';

/**
 * The template's one ingress parameter at creation: the operator's choice for a cluster open to anywhere (none: the
 * template's default, anywhere), else the list's first IPv4 range; the rest of the list follows once the stack stands.
 */
function firstIngress(ingress: readonly string[] | null | undefined, operatorCidr: string | undefined): string | undefined {
  if (!ingress) return operatorCidr;
  return ingress.find((cidr) => !cidr.includes(':')) ?? NOBODY;
}

/** The instance states a cluster's live nodes can be in (terminated ones are history). */
const LIVE_STATES = ['pending', 'running', 'shutting-down', 'stopping', 'stopped'];

export function createAwsProvisioner(options: AwsProvisionerOptions = {}): CloudProvisioner & { readonly kind: 'aws' } {
  const clients = new Map<string, Promise<AwsClients>>();
  /** Clients for a region; undefined: the SDK's own default (AWS_REGION, the profile), as for credentials. */
  const clientsFor = (region: string | undefined): Promise<AwsClients> => {
    const key = region ?? '';
    let pair = clients.get(key);
    if (!pair) {
      pair = loadSdk().then((sdk) => {
        const config = region ? { region } : {};
        return { sdk, cloudFormation: new sdk.cf.CloudFormationClient(config), ec2: new sdk.ec2.EC2Client(config) };
      });
      clients.set(key, pair);
    }
    return pair;
  };
  const backupPattern = options.backupBucketArnPattern ?? DEFAULT_BACKUP_BUCKET_ARN_PATTERN;

  async function findStack(stackName: string, region: string | undefined): Promise<Stack | undefined> {
    const { sdk, cloudFormation } = await clientsFor(region);
    try {
      const answer = await cloudFormation.send(new sdk.cf.DescribeStacksCommand({ StackName: stackName }));
      return answer.Stacks?.[0];
    } catch (error) {
      if (isStackMissing(error)) return undefined;
      throw toCloudError(error, `read the stack ${stackName}`);
    }
  }

  async function stackInstances(stackName: string, region: string | undefined): Promise<Instance[]> {
    const { sdk, ec2 } = await clientsFor(region);
    const instances: Instance[] = [];
    let NextToken: string | undefined;
    try {
      do {
        const page = await ec2.send(
          new sdk.ec2.DescribeInstancesCommand({
            // CloudFormation tags every instance it creates with its stack's name.
            Filters: [
              { Name: 'tag:aws:cloudformation:stack-name', Values: [stackName] },
              { Name: 'instance-state-name', Values: LIVE_STATES },
            ],
            NextToken,
          }),
        );
        for (const reservation of page.Reservations ?? []) instances.push(...(reservation.Instances ?? []));
        NextToken = page.NextToken;
      } while (NextToken);
    } catch (error) {
      throw toCloudError(error, `list the instances of ${stackName}`);
    }
    return instances;
  }

  async function instanceStatuses(instances: Instance[], region: string | undefined): Promise<InstanceStatus[]> {
    const ids = instances.filter((i) => i.State?.Name === 'running').map((i) => i.InstanceId!);
    if (ids.length === 0) return [];
    const { sdk, ec2 } = await clientsFor(region);
    try {
      const answer = await ec2.send(new sdk.ec2.DescribeInstanceStatusCommand({ InstanceIds: ids }));
      return answer.InstanceStatuses ?? [];
    } catch (error) {
      throw toCloudError(error, 'read the status checks of the instances');
    }
  }

  /** The first resource that failed, in CloudFormation's words (the stack reason alone is often vague). */
  async function failureReason(stack: Stack, region: string | undefined): Promise<string | undefined> {
    const { sdk, cloudFormation } = await clientsFor(region);
    try {
      const answer = await cloudFormation.send(new sdk.cf.DescribeStackEventsCommand({ StackName: stack.StackId ?? stack.StackName }));
      // Events come newest first; the earliest failure is the cause, later ones are its consequences.
      const failures = (answer.StackEvents ?? []).filter(
        (e) =>
          e.ResourceStatus?.endsWith('_FAILED') &&
          e.LogicalResourceId !== stack.StackName &&
          !/cancelled/i.test(e.ResourceStatusReason ?? ''),
      );
      const cause = failures.at(-1);
      if (cause) return `${cause.LogicalResourceId} (${cause.ResourceType}): ${cause.ResourceStatusReason ?? cause.ResourceStatus}`;
    } catch {
      // The events are a nicety: the stack's own reason below still explains something.
    }
    return stack.StackStatusReason;
  }

  async function describe(stackName: string, region?: string): Promise<ClusterDescription> {
    const stack = await findStack(stackName, region);
    if (!stack) return { stackStatus: null, deploymentStatus: null, powerState: 'STOPPED', nodes: [] };
    const stackStatus = mapStackStatus(stack.StackStatus);
    if (stackStatus === 'DELETE_COMPLETE') return describeFromAws({ stack, instances: [], statuses: [] });
    const instances = await stackInstances(stackName, region);
    const statuses = await instanceStatuses(instances, region);
    const failed = FAILED_STACK_STATUSES.includes(stackStatus) || stackStatus === 'DELETE_FAILED';
    return describeFromAws({ stack, instances, statuses, failureReason: failed ? await failureReason(stack, region) : undefined });
  }

  async function requireInstances(stackName: string, region: string | undefined) {
    const stack = await findStack(stackName, region);
    if (!stack || mapStackStatus(stack.StackStatus) === 'DELETE_COMPLETE') {
      throw new CloudRequestError(`Stack ${stackName} does not exist`, false);
    }
    return stackInstances(stackName, region);
  }

  const ids = (instances: Instance[], states: string[]) =>
    instances.filter((i) => states.includes(i.State?.Name ?? '')).map((i) => i.InstanceId!);

  return {
    kind: 'aws',

    async createCluster(input: CreateClusterInput) {
      if (!input.password) throw new CloudRequestError(`The ${TEMPLATE_PARAMETERS.password} parameter must not be empty`, false);
      // The nodes give the portal's console queries and activity reads a user of their own: no stack goes without it.
      if (!input.portalSqlCredential) {
        throw new CloudRequestError(`The ${TEMPLATE_PARAMETERS.portalSqlCredential} parameter must not be empty`, false);
      }
      const { settings } = input;
      let templateBody: string;
      try {
        // Compact: CreateStack takes at most 51,200 bytes of template inline.
        templateBody = JSON.stringify(generateClusterTemplate({ deploymentId: input.deploymentId, ...settings }));
      } catch (error) {
        if (error instanceof TemplateSettingsError) throw new CloudRequestError(error.message, false);
        throw error;
      }
      const parameters: Parameter[] = [
        { ParameterKey: TEMPLATE_PARAMETERS.password, ParameterValue: input.password },
        { ParameterKey: TEMPLATE_PARAMETERS.portalSqlCredential, ParameterValue: input.portalSqlCredential },
      ];
      if (settings.backupRegion) {
        parameters.push({
          ParameterKey: TEMPLATE_PARAMETERS.backupDestinationBucketArn,
          ParameterValue: backupPattern.replaceAll('{region}', settings.backupRegion),
        });
      }
      if (options.keyName) parameters.push({ ParameterKey: TEMPLATE_PARAMETERS.keyName, ParameterValue: options.keyName });
      const ingressCidr = firstIngress(input.ingress, options.ingressCidr);
      if (ingressCidr) parameters.push({ ParameterKey: TEMPLATE_PARAMETERS.ingressCidr, ParameterValue: ingressCidr });

      const { sdk, cloudFormation } = await clientsFor(settings.region);
      try {
        const answer = await cloudFormation.send(
          new sdk.cf.CreateStackCommand({
            StackName: input.stackName,
            TemplateBody: templateBody,
            Parameters: parameters,
            // The template creates the nodes' role and, with disaster recovery, the replication role.
            Capabilities: ['CAPABILITY_IAM'],
            OnFailure: 'ROLLBACK',
            // A retried job sends the same token: CloudFormation treats it as the same request.
            ClientRequestToken: `create-${input.stackName}`.slice(0, 128),
            Tags: [
              { Key: TAG_KEYS.deploymentId, Value: input.deploymentId },
              { Key: TAG_KEYS.clusterName, Value: safeTagValue(settings.clusterName) },
            ],
          }),
        );
        if (!answer.StackId) throw new CloudRequestError(`CloudFormation gave no stack id for ${input.stackName}`, true);
        return { stackId: answer.StackId };
      } catch (error) {
        // The stack exists already: an earlier attempt of this same request got through.
        if (errorName(error) === 'AlreadyExistsException') {
          const existing = await findStack(input.stackName, settings.region);
          const mine = existing?.Tags?.some((t) => t.Key === TAG_KEYS.deploymentId && t.Value === input.deploymentId);
          if (existing?.StackId && mine) return { stackId: existing.StackId };
        }
        throw toCloudError(error, `create the stack ${input.stackName}`);
      }
    },

    describe,

    // The SQL endpoint is a path of the cluster's Web Portal address, which the stack gives as an output.
    sql: createAwsSqlClient({
      portalUrlOf: async (stackName, region) =>
        (await findStack(stackName, region))?.Outputs?.find((o) => o.OutputKey === TEMPLATE_OUTPUTS.portalUrl)?.OutputValue ?? null,
    }),

    async applyNetworkAccess(stackName: string, ingress: readonly string[] | null, region?: string) {
      const wanted = ingress
        ? [...new Set([...ingress, ...(options.portalCidr ? [options.portalCidr] : [])])]
        : [options.ingressCidr ?? ANYWHERE];
      await applySecurityGroupIngress(await clientsFor(region), stackName, wanted);
    },

    async stopCluster(stackName: string, region?: string) {
      const running = ids(await requireInstances(stackName, region), ['pending', 'running']);
      if (running.length === 0) return;
      const { sdk, ec2 } = await clientsFor(region);
      try {
        await ec2.send(new sdk.ec2.StopInstancesCommand({ InstanceIds: running }));
      } catch (error) {
        throw toCloudError(error, `stop the instances of ${stackName}`);
      }
    },

    async startCluster(stackName: string, region?: string) {
      const stopped = ids(await requireInstances(stackName, region), ['stopped']);
      if (stopped.length === 0) return;
      const { sdk, ec2 } = await clientsFor(region);
      try {
        await ec2.send(new sdk.ec2.StartInstancesCommand({ InstanceIds: stopped }));
      } catch (error) {
        throw toCloudError(error, `start the instances of ${stackName}`);
      }
    },

    async resizeCluster(stackName: string, shape: QueryEngineShape, region?: string) {
      const stack = await findStack(stackName, region);
      if (!stack) throw new CloudRequestError(`Stack ${stackName} does not exist`, false);
      await updateStackShape(await clientsFor(region), stack, shape);
    },

    async deleteCluster(stackName: string, region?: string) {
      const stack = await findStack(stackName, region);
      // Deleting a stack that is gone is not an error, as in CloudFormation itself.
      if (!stack) return;
      const status = mapStackStatus(stack.StackStatus);
      if (status === 'DELETE_COMPLETE' || status === 'DELETE_IN_PROGRESS') return;
      const { sdk, cloudFormation } = await clientsFor(region);
      let retain: string[] | undefined;
      if (status === 'DELETE_FAILED') {
        // A second attempt keeps what could not be deleted (typically a backup bucket that still holds
        // objects) so the stack can go; describe() reported the failure, the cluster ends partly deleted.
        try {
          const resources = await cloudFormation.send(new sdk.cf.DescribeStackResourcesCommand({ StackName: stack.StackId ?? stackName }));
          retain = (resources.StackResources ?? []).filter((r) => r.ResourceStatus === 'DELETE_FAILED').map((r) => r.LogicalResourceId!);
        } catch (error) {
          throw toCloudError(error, `read the resources of ${stackName}`);
        }
      }
      try {
        await cloudFormation.send(
          new sdk.cf.DeleteStackCommand({ StackName: stackName, ...(retain?.length ? { RetainResources: retain } : {}) }),
        );
      } catch (error) {
        throw toCloudError(error, `delete the stack ${stackName}`);
      }
    },
  };
}
