/** User-facing messages of the account screens; their wording is part of the product, word for word. */
export const AUTH_MESSAGES = {
  incorrectCredentials: 'Incorrect email or password',
  loginError: 'Login Error',
  emailExists: 'Email Already Exists',
  validationError: 'Validation Error',
  createAccountError: 'Create Account Error',
  emailVerificationSent: 'Email Verification Sent',
  emailDoesNotExist: 'Email does not exist',
  emailVerificationNotEnabled: 'Email Verification Not Enabled',
  passwordResetRequestFailed: 'Create Account Failed',
  sendingPasswordReset: 'Sending password reset...',
  passwordResetSent: 'Password Reset Sent',
  errorSendingPasswordReset: 'Error Sending Password Reset',
  loginExpired: 'Login Expired',
} as const;

export const ACCOUNT_MESSAGES = {
  cooldown: 'Please wait 1 minute before resending',
  incorrectPassword: 'Incorrect password',
  changingPassword: 'Changing password...',
  passwordChanged: 'Password Changed',
  errorChangingPassword: 'Error changing password',
  resendingVerification: 'Resending email verification...',
  verificationResent: 'Email Verification Resent',
  errorResendingVerification: 'Error Resending Email Verification',
  loggingOut: 'Logging out...',
  loggedOut: 'Logged out',
  errorLoggingOut: 'Error Logging Out',
  loggingOutAll: 'Logging out all...',
  loggedOutAll: 'Logged out all',
  errorLoggingOutAll: 'Error Logging Out all',
  verifyingEmail: 'Verifying email...',
  emailVerified: 'Email Verified',
  errorVerifyingEmail: 'Error verifying email',
  resettingPassword: 'Resetting password...',
  passwordReset: 'Password Reset',
  invalidToken: 'Invalid token error',
  resetPasswordFailed: 'Reset Password Failed',
  errorLoadingAccountTitle: 'Error loading user account',
  errorLoadingAccountText: 'There was an error loading your account, would you like to logout?',
} as const;

export const APP_MESSAGES = {
  unexpectedError: 'Unexpected Application Error!',
} as const;
