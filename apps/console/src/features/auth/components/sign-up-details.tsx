import type { ComponentProps } from 'react';
import { DetailsStep } from './details-step';
import { SignUpPromo } from './sign-up-promo';

/**
 * The sign-up form with its free-credit promise. Only /signup shows it, so it loads on demand and stays out of
 * /login's first download (bundle-budget.test.ts).
 */
export function SignUpDetails(props: ComponentProps<typeof DetailsStep>) {
  return (
    <>
      <SignUpPromo />
      <DetailsStep {...props} />
    </>
  );
}
