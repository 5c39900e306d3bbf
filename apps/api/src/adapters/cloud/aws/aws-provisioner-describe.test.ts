/**
 * The AWS driver against aws-sdk-client-mock: no network. Responses follow the shapes AWS returns
 * (as recorded from the CloudFormation and EC2 APIs), trimmed to the fields that matter.
 */
import {
  type CloudFormationClient,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { describe, expect, it, vi } from 'vitest';
import { createAwsProvisioner } from './aws-provisioner.js';
import {
  cf,
  ec2,
  STACK_NAME,
  STACK_ID,
  awsError,
  stack,
  OUTPUTS,
  instances,
  givenCluster,
  all,
  driver,
  useAwsMocks,
} from '../../../../test/support/aws-mocks.js';

useAwsMocks();

describe('describe', () => {
  it('reports no stack when CloudFormation does not know it', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`));
    await expect(driver().describe(STACK_NAME, 'us-east-1')).resolves.toEqual({
      stackStatus: null,
      deploymentStatus: null,
      powerState: 'STOPPED',
      nodes: [],
    });
    expect(ec2.commandCalls(DescribeInstancesCommand)).toHaveLength(0);
  });

  it('reports a stack in creation with its nodes coming up', async () => {
    const list = instances((_, role) => (role === 'QUERY_ENGINES' ? 'pending' : 'running')).slice(0, 6);
    givenCluster('CREATE_IN_PROGRESS', list, 'initializing');
    const d = await driver().describe(STACK_NAME, 'us-east-1');
    expect(d).toMatchObject({ stackStatus: 'CREATE_IN_PROGRESS', deploymentStatus: null, powerState: 'PENDING' });
    expect(d.nodes).toHaveLength(8);
    expect(d.nodes.map((n) => n.nodeStatus)).toEqual([
      'Running',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
    ]);
    expect(d.managerUrl).toBeUndefined();
    // The instances are found by the tag CloudFormation puts on them, live ones only.
    const filters = ec2.commandCalls(DescribeInstancesCommand)[0]!.args[0].input.Filters!;
    expect(filters).toContainEqual({ Name: 'tag:aws:cloudformation:stack-name', Values: [STACK_NAME] });
    expect(filters.find((f) => f.Name === 'instance-state-name')!.Values).not.toContain('terminated');
  });

  it('follows the installer tag: stack complete, product deploying, then deployed and online', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('running')), 'ok', { Outputs: OUTPUTS });
    const deploying = await driver().describe(STACK_NAME, 'us-east-1');
    expect(deploying).toMatchObject({
      stackStatus: 'CREATE_COMPLETE',
      deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS',
      powerState: 'PENDING',
    });
    expect(deploying.managerUrl).toBeUndefined();
    expect(new Set(deploying.nodes.map((n) => n.serviceStatus))).toEqual(new Set(['Starting']));

    givenCluster('CREATE_COMPLETE', instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'), 'ok', { Outputs: OUTPUTS });
    const online = await driver().describe(STACK_NAME, 'us-east-1');
    expect(online).toMatchObject({
      stackStatus: 'CREATE_COMPLETE',
      deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
      powerState: 'RUNNING',
      managerUrl: 'https://54.210.10.20/manager/',
      portalUrl: 'https://54.210.10.20/',
    });
    expect(online.nodes.filter((n) => n.role === 'QUERY_ENGINES' && n.serviceStatus === 'Online')).toHaveLength(5);
    expect(online.nodes[1]).toEqual({
      host: 'kumo-qe-1',
      role: 'QUERY_ENGINES',
      instanceType: 'r6i.4xlarge',
      core: 16,
      nodeStatus: 'Running',
      serviceName: 'Query Engine',
      serviceStatus: 'Online',
    });
  });

  it('reports a failed product deployment and an unknown tag as an exception', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_FAILED'));
    expect((await driver().describe(STACK_NAME)).deploymentStatus).toBe('KUMO_CLUSTER_DEPLOYMENT_FAILED');
    givenCluster('CREATE_COMPLETE', instances(all('running'), 'garbled'));
    expect((await driver().describe(STACK_NAME)).deploymentStatus).toBe('KUMO_CLUSTER_DEPLOYMENT_EXCEPTION');
    // The stack is complete but its Peripheral node was terminated by hand.
    givenCluster(
      'CREATE_COMPLETE',
      instances(all('running')).filter((i) => i.Tags?.some((t) => t.Value === 'PERIPHERAL_SERVICES') !== true),
    );
    expect((await driver().describe(STACK_NAME)).deploymentStatus).toBe('KUMO_CLUSTER_DEPLOYMENT_EXCEPTION');
  });

  it.each(['CREATE_FAILED', 'ROLLBACK_IN_PROGRESS', 'ROLLBACK_COMPLETE'])(
    'explains a failed creation (%s) by its first failed resource',
    async (status) => {
      givenCluster(status, [], 'ok', {
        StackStatusReason: 'The following resource(s) failed to create: [QueryEngine3]. Rollback requested by user.',
      });
      const events: StackEvent[] = [
        // Newest first, as DescribeStackEvents returns them.
        {
          StackId: STACK_ID,
          EventId: 'e4',
          StackName: STACK_NAME,
          LogicalResourceId: STACK_NAME,
          ResourceType: 'AWS::CloudFormation::Stack',
          Timestamp: new Date('2026-11-23T15:09:00Z'),
          ResourceStatus: 'ROLLBACK_IN_PROGRESS',
          ResourceStatusReason: 'The following resource(s) failed to create: [QueryEngine3]. Rollback requested by user.',
        },
        {
          StackId: STACK_ID,
          EventId: 'e3b',
          StackName: STACK_NAME,
          LogicalResourceId: 'PortalAddressAssociation',
          ResourceType: 'AWS::EC2::EIPAssociation',
          Timestamp: new Date('2026-11-23T15:08:40Z'),
          ResourceStatus: 'CREATE_FAILED',
          ResourceStatusReason: 'Resource handler returned message: "Instance is not in a valid state"',
        },
        {
          StackId: STACK_ID,
          EventId: 'e3',
          StackName: STACK_NAME,
          LogicalResourceId: 'QueryEngine4',
          ResourceType: 'AWS::EC2::Instance',
          Timestamp: new Date('2026-11-23T15:08:30Z'),
          ResourceStatus: 'CREATE_FAILED',
          ResourceStatusReason: 'Resource creation cancelled',
        },
        {
          StackId: STACK_ID,
          EventId: 'e2',
          StackName: STACK_NAME,
          LogicalResourceId: 'QueryEngine3',
          ResourceType: 'AWS::EC2::Instance',
          Timestamp: new Date('2026-11-23T15:08:00Z'),
          ResourceStatus: 'CREATE_FAILED',
          ResourceStatusReason:
            'We currently do not have sufficient r6i.4xlarge capacity in the Availability Zone you requested (us-east-1a). (Service: Ec2, Status Code: 500)',
        },
        {
          StackId: STACK_ID,
          EventId: 'e1',
          StackName: STACK_NAME,
          LogicalResourceId: 'Vpc',
          ResourceType: 'AWS::EC2::VPC',
          Timestamp: new Date('2026-11-23T15:01:00Z'),
          ResourceStatus: 'CREATE_COMPLETE',
        },
      ];
      cf.on(DescribeStackEventsCommand).resolves({ StackEvents: events });
      const d = await driver().describe(STACK_NAME, 'us-east-1');
      expect(d).toMatchObject({ stackStatus: status, deploymentStatus: null, powerState: 'STOPPED', nodes: [] });
      expect(d.failureReason).toBe(`QueryEngine3 (AWS::EC2::Instance): ${events[3]!.ResourceStatusReason}`);
    },
  );

  it('falls back to the stack reason when the events cannot be read', async () => {
    givenCluster('ROLLBACK_COMPLETE', [], 'ok', { StackStatusReason: 'The following resource(s) failed to create: [Vpc].' });
    cf.on(DescribeStackEventsCommand).rejects(awsError('Throttling', 'Rate exceeded'));
    expect((await driver().describe(STACK_NAME)).failureReason).toBe('The following resource(s) failed to create: [Vpc].');
  });

  it('reports stopping, stopped, starting and a partial capacity', async () => {
    givenCluster(
      'CREATE_COMPLETE',
      instances((h) => (h === 'kumo-qe-2' ? 'stopping' : 'stopped'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'),
    );
    expect((await driver().describe(STACK_NAME)).powerState).toBe('STOPPING');

    givenCluster('CREATE_COMPLETE', instances(all('stopped'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'), 'ok', { Outputs: OUTPUTS });
    const stopped = await driver().describe(STACK_NAME);
    expect(stopped.powerState).toBe('STOPPED');
    expect(stopped.managerUrl).toBeUndefined();
    expect(new Set(stopped.nodes.map((n) => `${n.nodeStatus}/${n.serviceStatus}`))).toEqual(new Set(['Stopped/Offline']));

    givenCluster(
      'CREATE_COMPLETE',
      instances((h) => (h.startsWith('kumo-qe') ? 'pending' : 'running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'),
    );
    expect((await driver().describe(STACK_NAME)).powerState).toBe('STARTING');

    // Everything up but the status checks still initialising: not online yet.
    givenCluster('CREATE_COMPLETE', instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'), 'initializing');
    expect((await driver().describe(STACK_NAME)).powerState).toBe('STARTING');

    // Two query engines stopped by hand: the cluster runs with capacity 3.
    givenCluster(
      'CREATE_COMPLETE',
      instances((h) => (h === 'kumo-qe-4' || h === 'kumo-qe-5' ? 'stopped' : 'running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'),
      'ok',
      { Outputs: OUTPUTS },
    );
    const partial = await driver().describe(STACK_NAME);
    expect(partial.powerState).toBe('RUNNING');
    expect(partial.nodes.filter((n) => n.role === 'QUERY_ENGINES' && n.serviceStatus === 'Online')).toHaveLength(3);
  });

  it('reports a deletion in progress, a failed one and a finished one', async () => {
    givenCluster('DELETE_IN_PROGRESS', instances(all('shutting-down')));
    expect(await driver().describe(STACK_NAME)).toMatchObject({
      stackStatus: 'DELETE_IN_PROGRESS',
      deploymentStatus: null,
      powerState: 'STOPPING',
    });

    givenCluster('DELETE_FAILED', [], 'ok', { StackStatusReason: 'The following resource(s) failed to delete: [BackupBucket].' });
    cf.on(DescribeStackEventsCommand).resolves({
      StackEvents: [
        {
          StackId: STACK_ID,
          EventId: 'd1',
          StackName: STACK_NAME,
          LogicalResourceId: 'BackupBucket',
          ResourceType: 'AWS::S3::Bucket',
          Timestamp: new Date(),
          ResourceStatus: 'DELETE_FAILED',
          ResourceStatusReason: 'The bucket you tried to delete is not empty',
        },
      ],
    });
    expect(await driver().describe(STACK_NAME)).toMatchObject({
      stackStatus: 'DELETE_FAILED',
      failureReason: 'BackupBucket (AWS::S3::Bucket): The bucket you tried to delete is not empty',
    });

    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('DELETE_COMPLETE')] });
    expect(await driver().describe(STACK_ID)).toEqual({
      stackStatus: 'DELETE_COMPLETE',
      deploymentStatus: null,
      powerState: 'STOPPED',
      nodes: [],
    });
  });

  it('uses AWS_REGION when the call names no region', async () => {
    vi.stubEnv('AWS_REGION', 'ap-southeast-2');
    let region: string | undefined;
    cf.on(DescribeStacksCommand).callsFake(async (_input, getClient) => {
      region = await (getClient() as CloudFormationClient).config.region();
      throw awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`);
    });
    await createAwsProvisioner().describe(STACK_NAME);
    expect(region).toBe('ap-southeast-2');
  });

  it('maps a failure to read the stack to a clear error', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('AccessDenied', 'not authorized to perform: cloudformation:DescribeStacks', 403));
    await expect(driver().describe(STACK_NAME)).rejects.toThrow(`Could not read the stack ${STACK_NAME}: the IAM policy`);
  });
});
