import { AUTH_MESSAGES, validateCreateAccount, type SecondFactorChallengeDto, type UserDto } from '@nimbus/common';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, statusOf } from '../../api/api-error';
import { userApi } from '../../api/user.api';
import { progressToast } from '../notifications/progress-toast';
import { toast } from '../notifications/toast';
import { useRememberedLocation } from '../session/RequireAuth';
import { useSignIn } from '../session/useSession';
import { createAccountErrorMessage, loginErrorMessage, passwordResetRequestErrorMessage } from './auth-errors';
import { hasRequiredFields, type AuthFields, type AuthMode } from './auth-modes';

/** State and actions of the authentication screen: its three modes, the fields, validation in order and the error shown. */
export function useAuthForm(initialError: string | null) {
  const [mode, setMode] = useState<AuthMode>('login');
  const [fields, setFields] = useState<AuthFields>({ email: '', password: '', verifyPassword: '' });
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  const [cooldownOpen, setCooldownOpen] = useState(false);
  const [secondStep, setSecondStep] = useState<SecondFactorChallengeDto['secondFactor'] | null>(null);
  const navigate = useNavigate();
  const remembered = useRememberedLocation();
  const signIn = useSignIn();

  /** Any change of a field's length clears the message. */
  const setField = (name: keyof AuthFields, value: string) => {
    if (value.length !== fields[name].length) setError(null);
    setFields((current) => ({ ...current, [name]: value }));
  };

  const switchMode = (next: AuthMode) => {
    setMode(next);
    setError(null);
  };

  const finishSignIn = (user: UserDto) => {
    signIn(user);
    void navigate(remembered ?? '/home', { replace: true });
  };

  const login = async () => {
    try {
      const result = await userApi.login({ email: fields.email, password: fields.password });
      if ('secondFactor' in result) {
        setSecondStep(result.secondFactor);
        return;
      }
      finishSignIn(result.user);
    } catch (err) {
      setError(loginErrorMessage(statusOf(err), err instanceof ApiError ? err.code : undefined));
    }
  };

  const createAccount = async () => {
    try {
      const { user, emailSent } = await userApi.create({ email: fields.email, password: fields.password });
      signIn(user);
      if (emailSent) toast.success(AUTH_MESSAGES.emailVerificationSent);
      void navigate('/home', { replace: true });
    } catch (err) {
      setError(createAccountErrorMessage(statusOf(err)));
    }
  };

  const requestPasswordReset = async () => {
    const progress = progressToast(AUTH_MESSAGES.sendingPasswordReset);
    try {
      await userApi.sendPasswordReset(fields.email);
      progress.success(AUTH_MESSAGES.passwordResetSent);
      switchMode('login');
    } catch (err) {
      if (statusOf(err) === 429) {
        progress.dismiss();
        setCooldownOpen(true);
        return;
      }
      progress.error(AUTH_MESSAGES.errorSendingPasswordReset);
      setError(passwordResetRequestErrorMessage(statusOf(err)));
    }
  };

  const canSubmit = hasRequiredFields(mode, fields) && !busy && !error;

  const submit = async () => {
    if (!canSubmit) return;
    const invalid = mode === 'create' ? validateCreateAccount(fields) : null;
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    try {
      await { login, create: createAccount, reset: requestPasswordReset }[mode]();
    } finally {
      setBusy(false);
    }
  };

  return {
    mode,
    fields,
    error,
    busy,
    canSubmit,
    cooldownOpen,
    setField,
    switchMode,
    submit,
    closeCooldown: () => setCooldownOpen(false),
    secondStep,
    finishSignIn,
    cancelSecondStep: () => setSecondStep(null),
  };
}
