/** Every user-facing message, written once (spec section 8 and decisions.md). */
export const MESSAGES = {
  emailRequired: 'Email is required.',
  emailInvalid: 'The email ID is not in the correct format.',
  nameRequired: 'Name is required.',
  nameInvalid: 'Invalid Name',
  nameTooLong: 'Username should not exceed 50 characters',
  otpRequired: 'OTP is required.',
  otpFormat: 'OTP must be 6 digits.',
  termsRequired: 'Please accept the Terms of Use and the Privacy Policy.',

  userNotRegistered: 'The email you provided is not registered with the product. Please consider signing up.',
  userAlreadyRegistered: 'This email is already registered with the product. Please log in.',
  otpInvalid: 'The OTP you entered is invalid. Please try again.',
  otpExpired: 'The OTP has expired. Please request a new one.',
  otpNotRequested: 'No OTP has been requested for this email. Please start again.',
  otpLocked:
    'Your account is locked for today after three invalid OTP attempts. Please try again tomorrow.',
  otpLockWarning:
    'The account is locked for a calendar day after three consecutive invalid OTPs or three invalid OTPs within an hour.',
  otpResendLimit: 'Too many OTP requests. Please wait an hour before requesting another OTP.',
  otpSent: 'An OTP has been sent to your email.',

  jwtExpired: 'JWT Token has expired.',
  refreshExpired: 'Refresh Token has expired.',
  refreshInvalid: 'Invalid Refresh token.',
  refreshNotFound: 'Refresh token not found.',
  roleMappingNotFound: 'Account Role Mapping not found.',
  notSignedIn: 'You are not signed in. Please log in.',
  forbidden: 'You are not allowed to do this.',
  sessionExpired: 'Your session has expired. Please log in to continue.',

  validationFailed: 'The request is not valid.',
  malformedJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request body is too large.',
  unsupportedMediaType: 'The request body must be JSON.',
  rateLimited: 'Too many requests. Please try again in a minute.',
  notFound: 'The requested resource was not found.',
  routeNotFound: 'This API endpoint does not exist.',
  internal: 'Internal Server Error',
  somethingWentWrong: 'Something went wrong.',
  noResponse: 'No response from the server.',

  pageNotFound: 'Page Not Found',
  accessExpired: 'Access Expired: Either link is expired or User already accepted the invite.',
  authenticating: 'Authenticating please wait…',
  validating: 'Validating please wait…',
} as const;
