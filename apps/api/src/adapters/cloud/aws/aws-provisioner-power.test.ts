/**
 * The AWS driver against aws-sdk-client-mock: no network. Responses follow the shapes AWS returns
 * (as recorded from the CloudFormation and EC2 APIs), trimmed to the fields that matter.
 */
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeInstancesCommand, StartInstancesCommand, StopInstancesCommand } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { CloudRequestError } from '../cloud-provisioner.js';
import { cf, ec2, STACK_NAME, awsError, instances, givenCluster, all, driver, useAwsMocks } from '../../../../test/support/aws-mocks.js';

useAwsMocks();

describe('stop and start', () => {
  it('stops the running instances of the stack', async () => {
    const list = instances((h) => (h === 'kumo-qe-5' ? 'stopped' : 'running'));
    givenCluster('CREATE_COMPLETE', list);
    ec2.on(StopInstancesCommand).resolves({
      StoppingInstances: [
        { InstanceId: list[0]!.InstanceId, CurrentState: { Code: 64, Name: 'stopping' }, PreviousState: { Code: 16, Name: 'running' } },
      ],
    });
    await driver().stopCluster(STACK_NAME, 'us-east-1');
    const ids = ec2.commandCalls(StopInstancesCommand)[0]!.args[0].input.InstanceIds!;
    expect(ids).toHaveLength(7);
    expect(ids).not.toContain(list[5]!.InstanceId);
  });

  it('does nothing when every instance is stopped already', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('stopped')));
    await driver().stopCluster(STACK_NAME);
    expect(ec2.commandCalls(StopInstancesCommand)).toHaveLength(0);
  });

  it('starts the stopped instances of the stack', async () => {
    const list = instances(all('stopped'));
    givenCluster('CREATE_COMPLETE', list);
    ec2.on(StartInstancesCommand).resolves({ StartingInstances: [] });
    await driver().startCluster(STACK_NAME, 'us-east-1');
    expect(ec2.commandCalls(StartInstancesCommand)[0]!.args[0].input.InstanceIds).toEqual(list.map((i) => i.InstanceId));
  });

  it('refuses to start or stop a stack that does not exist', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`));
    await expect(driver().startCluster(STACK_NAME)).rejects.toThrow(`Stack ${STACK_NAME} does not exist`);
    await expect(driver().stopCluster(STACK_NAME)).rejects.toThrow(CloudRequestError);
    expect(ec2.commandCalls(DescribeInstancesCommand)).toHaveLength(0);
  });

  it.each([
    [
      'InsufficientInstanceCapacity',
      'We currently do not have sufficient r6i.4xlarge capacity in the Availability Zone you requested',
      /no capacity/,
      true,
    ],
    [
      'IncorrectInstanceState',
      "The instance 'i-0a1b2c3d4e5f60700' is not in a state from which it can be started.",
      /changing state/,
      true,
    ],
    ['UnauthorizedOperation', 'You are not authorized to perform this operation.', /IAM policy/, false],
  ])('maps the EC2 error %s', async (code, text, message, retryable) => {
    givenCluster('CREATE_COMPLETE', instances(all('stopped')));
    ec2.on(StartInstancesCommand).rejects(awsError(code, text));
    const failure = (await driver()
      .startCluster(STACK_NAME)
      .catch((e: unknown) => e)) as CloudRequestError;
    expect(failure).toBeInstanceOf(CloudRequestError);
    expect(failure.message).toMatch(message);
    expect(failure.message).toContain(`Could not start the instances of ${STACK_NAME}`);
    expect(failure.retryable).toBe(retryable);
  });
});
