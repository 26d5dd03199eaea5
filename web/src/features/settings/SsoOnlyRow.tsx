import { useSignInOptions } from '../../api/sign-in-options.queries';
import { SettingRow } from './SettingRow';

/** In place of "Change password" for an account made by single sign-on: it has no password to change. */
export function SsoOnlyRow() {
  const { data } = useSignInOptions();
  const provider = data?.sso?.label.replace(/^Sign in with\s+/i, '') ?? 'single sign-on';
  return (
    <SettingRow
      title="Password"
      description={`Signs in with ${provider}. To also sign in with a password, use “Forgot?” on the login screen to set one.`}
    >
      {null}
    </SettingRow>
  );
}
