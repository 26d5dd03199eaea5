import { ACCOUNT_MESSAGES } from '@nimbus/common';
import { useState } from 'react';
import { statusOf } from '../../api/api-error';
import { userApi } from '../../api/user.api';
import { progressToast } from '../notifications/progress-toast';

/** Resends the verification e-mail; a second one within a minute opens the cooldown dialog instead. */
export function useResendVerification() {
  const [busy, setBusy] = useState(false);
  const [cooldownOpen, setCooldownOpen] = useState(false);

  const resend = async () => {
    setBusy(true);
    const toast = progressToast(ACCOUNT_MESSAGES.resendingVerification);
    try {
      await userApi.resendVerifyEmail();
      toast.success(ACCOUNT_MESSAGES.verificationResent);
    } catch (err) {
      if (statusOf(err) === 429) {
        toast.dismiss();
        setCooldownOpen(true);
      } else {
        toast.error(ACCOUNT_MESSAGES.errorResendingVerification);
      }
    } finally {
      setBusy(false);
    }
  };

  return { busy, cooldownOpen, resend, closeCooldown: () => setCooldownOpen(false) };
}
