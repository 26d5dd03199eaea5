import type { TwoFactorSetupDto } from '@nimbus/common';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { TextField } from '../../components/TextField';

/** The QR code and the secret of a new setup, and the field for the first code that confirms it. */
export function TwoFactorEnrol({
  setup,
  busy,
  error,
  onConfirm,
}: {
  setup: TwoFactorSetupDto;
  busy: boolean;
  error: string | null;
  onConfirm: (code: string) => void;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  useEffect(() => {
    let live = true;
    void QRCode.toString(setup.otpauthUrl, { type: 'svg', margin: 1 }).then((svg) => {
      if (live) setQr(`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [setup.otpauthUrl]);
  const digits = code.replace(/\s/g, '');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (/^\d{6}$/.test(digits) && !busy) onConfirm(digits);
  };
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <p className="text-sm text-muted">Scan this QR code with your authenticator app, or type the key below into it.</p>
      {qr && <img src={qr} alt="QR code for your authenticator app" className="size-44 rounded-lg ring-1 ring-gray-200" />}
      <p className="text-sm">
        Key:{' '}
        <span className="font-mono break-all text-ink" data-testid="two-factor-secret">
          {setup.secret}
        </span>
      </p>
      <TextField
        label="Enter the 6-digit code from your authenticator app"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={setCode}
      />
      <FormError message={error} />
      <Button type="submit" disabled={!/^\d{6}$/.test(digits) || busy}>
        Turn on
      </Button>
    </form>
  );
}
