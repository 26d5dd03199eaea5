export const QUOTA_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
export type QuotaUnit = keyof typeof QUOTA_UNITS;

/** A size typed in MB or GB as whole bytes; null when it is not a positive number. */
export function quotaBytesOf(amount: string, unit: QuotaUnit): number | null {
  const value = Number(amount.trim().replace(',', '.'));
  if (!amount.trim() || !Number.isFinite(value) || value <= 0) return null;
  const bytes = Math.round(value * QUOTA_UNITS[unit]);
  return bytes <= Number.MAX_SAFE_INTEGER ? bytes : null;
}

/** A quota in bytes as the dialog shows it: GB when whole-ish, else MB. */
export function quotaFieldsOf(bytes: number | null): { amount: string; unit: QuotaUnit } {
  if (bytes === null) return { amount: '', unit: 'GB' };
  if (bytes >= QUOTA_UNITS.GB) return { amount: String(Math.round((bytes / QUOTA_UNITS.GB) * 100) / 100), unit: 'GB' };
  return { amount: String(Math.round((bytes / QUOTA_UNITS.MB) * 100) / 100), unit: 'MB' };
}
