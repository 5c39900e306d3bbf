import { useState } from 'react';
import { Controller, type Control, type UseFormGetValues, type UseFormTrigger } from 'react-hook-form';
import { Popover, SimpleGrid } from '@mantine/core';
import type { CreateClusterForm } from '@kumo/contract';
import { NewPasswordInput, bound } from './create-cluster-bindings';
import { PasswordChecks } from './password-checks';

interface PasswordSectionProps {
  control: Control<CreateClusterForm>;
  getValues: UseFormGetValues<CreateClusterForm>;
  trigger: UseFormTrigger<CreateClusterForm>;
  /** The password as typed, for the checks shown while it has the focus. */
  password: string;
}

/** The cluster password with its rules ticked as it is typed, and its confirmation checked again whenever it changes. */
export function PasswordSection({ control, getValues, trigger, password }: PasswordSectionProps) {
  const [passwordFocused, setPasswordFocused] = useState(false);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Popover
        opened={passwordFocused}
        position="bottom-start"
        withArrow
        shadow="md"
        trapFocus={false}
        returnFocus={false}
        withRoles={false}
      >
        <Popover.Target>
          <div>
            <Controller
              control={control}
              name="password"
              render={(rendered) => (
                <NewPasswordInput
                  label="Password"
                  {...bound(rendered)}
                  onFocus={() => setPasswordFocused(true)}
                  onBlur={() => {
                    setPasswordFocused(false);
                    rendered.field.onBlur();
                  }}
                  onValue={(value) => {
                    rendered.field.onChange(value);
                    if (getValues('confirm_password')) void trigger('confirm_password');
                  }}
                  aria-describedby="password-checks"
                />
              )}
            />
          </div>
        </Popover.Target>
        <Popover.Dropdown id="password-checks">
          <PasswordChecks password={password} />
        </Popover.Dropdown>
      </Popover>
      <Controller
        control={control}
        name="confirm_password"
        render={(rendered) => <NewPasswordInput label="Confirm Password" {...bound(rendered)} onValue={rendered.field.onChange} />}
      />
    </SimpleGrid>
  );
}
