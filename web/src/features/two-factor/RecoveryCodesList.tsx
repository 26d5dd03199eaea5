import { useState } from 'react';
import { Button } from '../../components/Button';

/** The ten recovery codes, shown once: copy or download them before leaving. */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n') + '\n';
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'nimbus-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 rounded-lg bg-gray-50 p-3 font-mono text-sm text-ink">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}>
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button variant="secondary" onClick={download}>
          Download
        </Button>
      </div>
    </div>
  );
}
