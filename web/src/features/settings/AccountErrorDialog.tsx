import { ACCOUNT_MESSAGES } from '@nimbus/common';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useLogout } from '../session/useLogout';

/** The account could not be loaded; yes logs out to /, otherwise back to /home. */
export function AccountErrorDialog() {
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <ConfirmDialog
      title={ACCOUNT_MESSAGES.errorLoadingAccountTitle}
      text={ACCOUNT_MESSAGES.errorLoadingAccountText}
      confirmLabel="Yes"
      onConfirm={() => void logout('one', { evenIfFailed: true })}
      onCancel={() => void navigate('/home')}
    />
  );
}
