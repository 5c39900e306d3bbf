import { Group, List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { PASSWORD_CHECKS } from '@kumo/contract';
import { IconCheck, IconX } from '../../components/icons';

/** The password rules, each ticked as soon as the typed password meets it (spec section 5). */
export function PasswordChecks({ password }: { password: string }) {
  return (
    <List spacing={4} size="sm" listStyleType="none" aria-label="Password requirements" p={0}>
      {PASSWORD_CHECKS.map((check) => {
        const met = check.test(password);
        return (
          <List.Item key={check.id} data-met={met}>
            <Group gap={6} wrap="nowrap">
              <ThemeIcon size={16} radius="xl" color={met ? 'teal' : 'gray'} variant={met ? 'filled' : 'light'} aria-hidden="true">
                {met ? <IconCheck size={11} /> : <IconX size={11} />}
              </ThemeIcon>
              <Text fz="sm" c={met ? undefined : 'dimmed'}>
                {check.label}
                <VisuallyHidden component="span">{met ? ' (met)' : ' (not met)'}</VisuallyHidden>
              </Text>
            </Group>
          </List.Item>
        );
      })}
    </List>
  );
}
