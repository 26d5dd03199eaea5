import { useState } from 'react';
import { exportDrive } from '../../api/download';
import { Button } from '../../components/Button';
import { SettingRow } from './SettingRow';

/** Downloads every file and folder of the drive as one zip; the browser shows the download's progress. */
export function ExportDriveRow() {
  const [starting, setStarting] = useState(false);
  const start = () => {
    setStarting(true);
    void exportDrive().finally(() => setStarting(false));
  };
  return (
    <SettingRow title="Export my drive" description="A zip of all your files and folders, with their names. The trash is left out.">
      <Button variant="secondary" disabled={starting} onClick={start}>
        Export my drive
      </Button>
    </SettingRow>
  );
}
