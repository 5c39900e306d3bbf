// The messages of the sign-in rules (rules.ts), apart from the others: the sign-in screen is the console's first
// download and holds these without the rest (apps/console/test/bundle-budget.test.ts). MESSAGES includes them.
export const SIGN_IN_MESSAGES = {
  emailRequired: 'Email is required.',
  emailInvalid: 'The email ID is not in the correct format.',
  nameRequired: 'Name is required.',
  nameInvalid: 'Invalid Name',
  nameTooLong: 'Username should not exceed 50 characters',
  somethingWentWrong: 'Something went wrong.',
} as const;
