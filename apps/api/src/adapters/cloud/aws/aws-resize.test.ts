/**
 * Resizing on AWS against aws-sdk-client-mock: UpdateStack on the stack's own template with the query engines' new
 * type and count, followed through describe() until the update is over.
 */
import { UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import type { Instance } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { CloudRequestError } from '../cloud-provisioner.js';
import { TAG_KEYS, TEMPLATE_PARAMETERS } from '../template/cluster-template.js';
import {
  OUTPUTS,
  STACK_ID,
  STACK_NAME,
  all,
  awsError,
  cf,
  driver,
  givenCluster,
  instances,
  useAwsMocks,
} from '../../../../test/support/aws-mocks.js';

useAwsMocks();

const shapeParameters = (instanceType: string, count: number) => [
  { ParameterKey: TEMPLATE_PARAMETERS.password, ParameterValue: '****' },
  { ParameterKey: TEMPLATE_PARAMETERS.amiId, ParameterValue: '/kumo/ami/2026.10.1' },
  { ParameterKey: TEMPLATE_PARAMETERS.queryEngineInstanceType, ParameterValue: instanceType },
  { ParameterKey: TEMPLATE_PARAMETERS.queryEngineCount, ParameterValue: String(count) },
];

/** The cluster's instances with only `engines` query engines of `instanceType` (CloudFormation removed the others). */
function withEngines(instanceType: string, engines: number): Instance[] {
  const hostOf = (i: Instance) => i.Tags?.find((t) => t.Key === TAG_KEYS.node)?.Value ?? '';
  return instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE')
    .filter((i) => !hostOf(i).startsWith('kumo-qe-') || Number(hostOf(i).slice('kumo-qe-'.length)) <= engines)
    .map((i) => (hostOf(i).startsWith('kumo-qe-') ? { ...i, InstanceType: instanceType as Instance['InstanceType'] } : i));
}

describe('resizing on AWS', () => {
  it('updates the stack on its own template with the new type and count, every other parameter as it was', async () => {
    givenCluster('CREATE_COMPLETE', withEngines('r6i.4xlarge', 5), 'ok', { Parameters: shapeParameters('r6i.4xlarge', 5) });
    cf.on(UpdateStackCommand).resolves({ StackId: STACK_ID });
    await driver().resizeCluster(STACK_NAME, { instanceType: 'r6i.8xlarge', count: 3 }, 'us-east-1');
    const sent = cf.commandCalls(UpdateStackCommand)[0]!.args[0].input;
    expect(sent).toMatchObject({ StackName: STACK_ID, UsePreviousTemplate: true, Capabilities: ['CAPABILITY_IAM'] });
    expect(sent.Parameters).toEqual([
      { ParameterKey: TEMPLATE_PARAMETERS.password, UsePreviousValue: true },
      { ParameterKey: TEMPLATE_PARAMETERS.amiId, UsePreviousValue: true },
      { ParameterKey: TEMPLATE_PARAMETERS.queryEngineInstanceType, ParameterValue: 'r6i.8xlarge' },
      { ParameterKey: TEMPLATE_PARAMETERS.queryEngineCount, ParameterValue: '3' },
    ]);
  });

  it('reports the resize under way until the update is over, then the engines the parameters ask for', async () => {
    givenCluster('UPDATE_IN_PROGRESS', withEngines('r6i.8xlarge', 3), 'ok', {
      Parameters: shapeParameters('r6i.8xlarge', 3),
      Outputs: OUTPUTS,
    });
    const moving = await driver().describe(STACK_NAME, 'us-east-1');
    expect(moving.resizing).toBe(true);
    expect(moving.powerState).toBe('RUNNING');

    givenCluster('UPDATE_COMPLETE', withEngines('r6i.8xlarge', 3), 'ok', {
      Parameters: shapeParameters('r6i.8xlarge', 3),
      Outputs: OUTPUTS,
    });
    const done = await driver().describe(STACK_NAME, 'us-east-1');
    expect(done.resizing).toBeUndefined();
    const engines = done.nodes.filter((node) => node.role === 'QUERY_ENGINES');
    expect(engines.map((node) => [node.host, node.instanceType, node.core, node.serviceStatus])).toEqual([
      ['kumo-qe-1', 'r6i.8xlarge', 32, 'Online'],
      ['kumo-qe-2', 'r6i.8xlarge', 32, 'Online'],
      ['kumo-qe-3', 'r6i.8xlarge', 32, 'Online'],
    ]);
  });

  it('takes a retried update that already went through as done', async () => {
    givenCluster('UPDATE_COMPLETE', withEngines('r6i.8xlarge', 3), 'ok', { Parameters: shapeParameters('r6i.8xlarge', 3) });
    cf.on(UpdateStackCommand).rejects(awsError('ValidationError', 'No updates are to be performed.'));
    await expect(driver().resizeCluster(STACK_NAME, { instanceType: 'r6i.8xlarge', count: 3 })).resolves.toBeUndefined();
  });

  it('refuses for good a stack made before clusters had sizes, and passes on what AWS refuses', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('running')));
    const old = driver().resizeCluster(STACK_NAME, { instanceType: 'r6i.8xlarge', count: 3 });
    await expect(old).rejects.toThrow(CloudRequestError);
    await expect(old).rejects.toMatchObject({ retryable: false });
    expect(cf.commandCalls(UpdateStackCommand)).toHaveLength(0);

    givenCluster('CREATE_COMPLETE', withEngines('r6i.4xlarge', 5), 'ok', { Parameters: shapeParameters('r6i.4xlarge', 5) });
    cf.on(UpdateStackCommand).rejects(awsError('Throttling', 'Rate exceeded'));
    await expect(driver().resizeCluster(STACK_NAME, { instanceType: 'r6i.8xlarge', count: 3 })).rejects.toMatchObject({ retryable: true });
  });
});
