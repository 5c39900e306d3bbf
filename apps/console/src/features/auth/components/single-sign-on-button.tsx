import { Button, Divider } from '@mantine/core';
import { IconKey } from '../../../components/sign-in-icons';

const SSO_START_PATH = '/oauth2/authorization/azure';

/** Staff may sign in through the identity provider; the API starts that flow, so this is a full page load. */
export function SingleSignOnButton() {
  return (
    <>
      <Divider label="or" labelPosition="center" my="lg" />
      <Button variant="default" size="md" fullWidth leftSection={<IconKey />} onClick={() => window.location.assign(SSO_START_PATH)}>
        Sign in with single sign-on
      </Button>
    </>
  );
}
