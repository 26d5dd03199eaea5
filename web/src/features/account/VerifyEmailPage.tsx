import { ACCOUNT_MESSAGES, TIMINGS } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { userKeys } from '../../api/query-keys';
import { userApi } from '../../api/user.api';
import { CenteredCard } from '../../components/CenteredCard';
import { CheckCircleIcon, ErrorIcon } from '../../components/icons';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { progressToast } from '../notifications/progress-toast';

/** A token works once, so a page shown twice (React strict mode) must not spend it twice. */
const verifications = new Map<string, Promise<void>>();
function verifyOnce(token: string): Promise<void> {
  let verification = verifications.get(token);
  if (!verification) {
    verification = userApi.verifyEmail(token);
    verifications.set(token, verification);
  }
  return verification;
}

type Status = 'verifying' | 'verified' | 'failed';

export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const [status, setStatus] = useState<Status>('verifying');
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const toast = progressToast(ACCOUNT_MESSAGES.verifyingEmail);
    verifyOnce(token).then(
      () => {
        if (!active) return;
        toast.success(ACCOUNT_MESSAGES.emailVerified);
        void queryClient.invalidateQueries({ queryKey: userKeys.all });
        setStatus('verified');
        timer = setTimeout(() => void navigate('/', { replace: true }), TIMINGS.redirectDelayMs);
      },
      () => {
        if (!active) return;
        toast.error(ACCOUNT_MESSAGES.errorVerifyingEmail);
        setStatus('failed');
      },
    );
    return () => {
      active = false;
      toast.dismissIfPending();
      clearTimeout(timer);
    };
  }, [token, navigate, queryClient]);

  return (
    <CenteredCard>
      <div className="flex flex-col items-center gap-5 text-center">
        <Logo />
        {status === 'verifying' && <Spinner className="size-10" label="Verifying" />}
        {status === 'verified' && <CheckCircleIcon className="size-12 text-green-600" />}
        {status === 'failed' && <ErrorIcon className="size-12 text-red-600" />}
        <h1 className="text-2xl font-normal text-ink">
          {
            {
              verifying: ACCOUNT_MESSAGES.verifyingEmail,
              verified: ACCOUNT_MESSAGES.emailVerified,
              failed: ACCOUNT_MESSAGES.errorVerifyingEmail,
            }[status]
          }
        </h1>
        {status === 'failed' && (
          <Link to="/" className="text-sm font-medium text-primary hover:underline">
            Back to Login
          </Link>
        )}
      </div>
    </CenteredCard>
  );
}
