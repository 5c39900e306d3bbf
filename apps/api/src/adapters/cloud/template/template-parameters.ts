import { CLUSTER_SIZES } from '@kumo/contract';
import { PORTAL_SQL_USER } from '../sql-port.js';
import { KUMO_MANAGER_USER, QUERY_ENGINE_COUNT, QUERY_ENGINE_NUMBERS, WEB_PORTAL_USER, roleLayout } from './node-layout.js';
import { TEMPLATE_PARAMETERS, amiParameterPath, type CloudFormationTemplate, type TemplateContext } from './template-names.js';

/**
 * The parameters CreateStack is given: the NoEcho password and portal credential, the AMI, an optional key pair, who
 * may connect, and the DR bucket.
 */
export function templateParameters({ settings, dr }: TemplateContext): CloudFormationTemplate['Parameters'] {
  const parameters: CloudFormationTemplate['Parameters'] = {
    [TEMPLATE_PARAMETERS.password]: {
      Type: 'String',
      NoEcho: true,
      MinLength: 12,
      MaxLength: 64,
      Description: `Password of the Kumo Manager user ${KUMO_MANAGER_USER} and the Web Portal user ${WEB_PORTAL_USER}`,
    },
    [TEMPLATE_PARAMETERS.portalSqlCredential]: {
      Type: 'String',
      NoEcho: true,
      MinLength: 32,
      MaxLength: 128,
      AllowedPattern: '^[A-Za-z0-9_-]+$',
      Description: `Password of the SQL endpoint's user ${PORTAL_SQL_USER}, the portal's own (console queries, activity reads)`,
    },
    [TEMPLATE_PARAMETERS.amiId]: {
      Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>',
      Default: amiParameterPath(settings.kumoVersion),
      Description: `SSM parameter holding the AMI id of Kumo ${settings.kumoVersion}`,
    },
    [TEMPLATE_PARAMETERS.keyName]: {
      Type: 'String',
      Default: '',
      Description: 'Optional EC2 key pair for operator SSH access (empty: none)',
    },
    [TEMPLATE_PARAMETERS.ingressCidr]: {
      Type: 'String',
      Default: '0.0.0.0/0',
      AllowedPattern: '^(\\d{1,3}\\.){3}\\d{1,3}/\\d{1,2}$',
      Description: 'Addresses allowed to reach the Web Portal and Kumo Manager (HTTPS)',
    },
  };
  Object.assign(parameters, queryEngineParameters(settings.queryEngines ?? DEFAULT_ENGINES));
  if (dr) {
    parameters[TEMPLATE_PARAMETERS.backupDestinationBucketArn] = {
      Type: 'String',
      AllowedPattern: '^arn:aws[a-z-]*:s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
      Description: `ARN of the versioned backup bucket in ${settings.backupRegion} that receives the replicated backups`,
    };
  }
  return parameters;
}

const DEFAULT_ENGINES = { instanceType: roleLayout('QUERY_ENGINES').instanceType, count: QUERY_ENGINE_COUNT };

/** The query engines' instance type and count: an UpdateStack with new values resizes the cluster. */
function queryEngineParameters(engines: { instanceType: string; count: number }): CloudFormationTemplate['Parameters'] {
  return {
    [TEMPLATE_PARAMETERS.queryEngineInstanceType]: {
      Type: 'String',
      Default: engines.instanceType,
      AllowedValues: CLUSTER_SIZES.map((size) => size.instance_type),
      Description: 'Instance type of the query engines (the cluster size)',
    },
    [TEMPLATE_PARAMETERS.queryEngineCount]: {
      Type: 'String',
      Default: String(engines.count),
      AllowedValues: QUERY_ENGINE_NUMBERS.map(String),
      Description: 'How many query engines run (the capacity level)',
    },
  };
}
