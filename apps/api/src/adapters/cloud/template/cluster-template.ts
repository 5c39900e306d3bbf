/**
 * The deployment template: a pure function from a cluster's settings to the CloudFormation JSON
 * document that creates it. The AWS driver sends it with CreateStack; staff download the same
 * document. Nothing here talks to AWS, and the password never enters the document: it is the
 * NoEcho parameter ClusterPassword, given once at stack creation and kept in Secrets Manager.
 * Its parts: the parameters (template-parameters.ts), the network (network-resources.ts), the secret, backups and
 * roles (storage-and-access-resources.ts) and the nodes (node-resources.ts), sharing the names in template-names.ts.
 */
import { formatCidr, parseCidr } from './cidr.js';
import { networkResources } from './network-resources.js';
import { KUMO_MANAGER_USER, WEB_PORTAL_USER } from './node-layout.js';
import { nodeResources, queryEngineConditions } from './node-resources.js';
import { storageAndAccessResources } from './storage-and-access-resources.js';
import {
  TAG_KEYS,
  TEMPLATE_OUTPUTS,
  TEMPLATE_PARAMETERS,
  TemplateSettingsError,
  ref,
  safeTagValue,
  sanitize,
  sub,
  type CloudFormationTemplate,
  type ClusterTemplateSettings,
  type TemplateContext,
} from './template-names.js';
import { templateParameters } from './template-parameters.js';

export {
  TAG_KEYS,
  TEMPLATE_OUTPUTS,
  TEMPLATE_PARAMETERS,
  TemplateSettingsError,
  amiParameterPath,
  backupPrefixFor,
  safeTagValue,
  type CloudFormationTemplate,
  type ClusterTemplateSettings,
} from './template-names.js';

const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
const VERSION = /^[0-9A-Za-z._-]{1,40}$/;

/** Builds the CloudFormation document of one cluster. Throws TemplateSettingsError on unusable settings. */
export function generateClusterTemplate(settings: ClusterTemplateSettings): CloudFormationTemplate {
  const vpc = parseCidr(settings.cidr);
  if (!vpc) throw new TemplateSettingsError(`Invalid CIDR block ${settings.cidr}`);
  if (vpc.prefix < 16 || vpc.prefix > 26) throw new TemplateSettingsError(`The VPC block must be a /16 to a /26, got /${vpc.prefix}`);
  if (!REGION.test(settings.region)) throw new TemplateSettingsError(`Invalid region ${settings.region}`);
  if (settings.backupRegion !== null) {
    if (!REGION.test(settings.backupRegion)) throw new TemplateSettingsError(`Invalid backup region ${settings.backupRegion}`);
    if (settings.backupRegion === settings.region) throw new TemplateSettingsError('The backup region must differ from the region');
  }
  if (!VERSION.test(settings.kumoVersion)) throw new TemplateSettingsError(`Invalid Kumo version ${settings.kumoVersion}`);
  if (!sanitize(settings.deploymentId)) throw new TemplateSettingsError('A deployment id is required');

  const deploymentId = settings.deploymentId;
  const commonTags = [
    { Key: TAG_KEYS.deploymentId, Value: deploymentId },
    { Key: TAG_KEYS.clusterName, Value: safeTagValue(settings.clusterName) },
  ];
  const context: TemplateContext = {
    settings,
    deploymentId,
    dr: settings.backupRegion !== null,
    commonTags,
    named: (name: string) => [{ Key: 'Name', Value: sub(`\${AWS::StackName}-${name}`) }, ...commonTags],
  };

  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: `Kumo Analytics Cloud cluster ${settings.clusterName} (Kumo ${settings.kumoVersion}, deployment ${deploymentId})`,
    Metadata: {
      'Kumo::Cluster': {
        DeploymentId: deploymentId,
        ClusterName: settings.clusterName,
        Region: settings.region,
        // CloudFormation refuses null anywhere in a document: no backup region, no key.
        ...(settings.backupRegion ? { BackupRegion: settings.backupRegion } : {}),
        Cidr: formatCidr(vpc),
        KumoVersion: settings.kumoVersion,
      },
    },
    Parameters: templateParameters(context),
    Conditions: {
      HasKeyName: { 'Fn::Not': [{ 'Fn::Equals': [ref(TEMPLATE_PARAMETERS.keyName), ''] }] },
      ...queryEngineConditions(),
    },
    Resources: { ...networkResources(context, vpc), ...storageAndAccessResources(context), ...nodeResources(context) },
    Outputs: {
      [TEMPLATE_OUTPUTS.managerUrl]: {
        Description: `Kumo Manager (user ${KUMO_MANAGER_USER})`,
        Value: sub('https://${PortalAddress}/manager/'),
      },
      [TEMPLATE_OUTPUTS.portalUrl]: { Description: `Web Portal (user ${WEB_PORTAL_USER})`, Value: sub('https://${PortalAddress}/') },
      [TEMPLATE_OUTPUTS.deploymentId]: { Value: deploymentId },
      [TEMPLATE_OUTPUTS.backupBucket]: { Value: ref('BackupBucket') },
      VpcId: { Value: ref('Vpc') },
    },
  };
}

/** The document as staff download it and as CreateStack receives it. */
export function renderClusterTemplate(settings: ClusterTemplateSettings): string {
  return JSON.stringify(generateClusterTemplate(settings), null, 2);
}
