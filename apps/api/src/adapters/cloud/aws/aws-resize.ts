/**
 * Resizing a cluster on AWS: UpdateStack on the stack's own template with new values of the query engines' instance
 * type and count, every other parameter kept. CloudFormation replaces or adds the engines and removes those beyond
 * the count; describe() reports `resizing` until the update is over.
 */
import type * as CloudFormationSdk from '@aws-sdk/client-cloudformation';
import type { CloudFormationClient, Parameter, Stack } from '@aws-sdk/client-cloudformation';
import { CloudRequestError, type QueryEngineShape } from '../cloud-provisioner.js';
import { TEMPLATE_PARAMETERS } from '../template/cluster-template.js';
import { errorName, toCloudError } from './aws-errors.js';

/** Stack statuses of an update under way: the engines are still moving. */
export const UPDATING_STACK_STATUSES = ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS'];

/** The parameters of the update: the engines' new values, the previous value of every other. */
export function resizeParameters(stack: Stack, shape: QueryEngineShape): Parameter[] {
  const ours: Record<string, string> = {
    [TEMPLATE_PARAMETERS.queryEngineInstanceType]: shape.instanceType,
    [TEMPLATE_PARAMETERS.queryEngineCount]: String(shape.count),
  };
  const kept = (stack.Parameters ?? [])
    .filter((p) => p.ParameterKey && !(p.ParameterKey in ours))
    .map((p) => ({ ParameterKey: p.ParameterKey, UsePreviousValue: true }));
  return [...kept, ...Object.entries(ours).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }))];
}

export async function updateStackShape(
  clients: { sdk: { cf: typeof CloudFormationSdk }; cloudFormation: CloudFormationClient },
  stack: Stack,
  shape: QueryEngineShape,
): Promise<void> {
  const names = new Set((stack.Parameters ?? []).map((p) => p.ParameterKey));
  if (!names.has(TEMPLATE_PARAMETERS.queryEngineCount)) {
    throw new CloudRequestError(`The stack ${stack.StackName} was made before clusters had sizes and cannot be resized`, false);
  }
  try {
    await clients.cloudFormation.send(
      new clients.sdk.cf.UpdateStackCommand({
        StackName: stack.StackId ?? stack.StackName,
        UsePreviousTemplate: true,
        Parameters: resizeParameters(stack, shape),
        Capabilities: ['CAPABILITY_IAM'],
      }),
    );
  } catch (error) {
    // A retried request whose update already went through: the stack holds these values.
    if (errorName(error) === 'ValidationError' && /No updates are to be performed/i.test(String((error as Error).message))) return;
    throw toCloudError(error, `resize the stack ${stack.StackName}`);
  }
}
