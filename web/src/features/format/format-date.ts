const pad = (value: number) => String(value).padStart(2, '0');

function parts(value: string | number | Date) {
  const date = value instanceof Date ? value : new Date(value);
  const hours = date.getHours();
  return {
    month: pad(date.getMonth() + 1),
    day: pad(date.getDate()),
    year: String(date.getFullYear()),
    hour: pad(hours % 12 === 0 ? 12 : hours % 12),
    minute: pad(date.getMinutes()),
    meridiem: hours < 12 ? 'am' : 'pm',
  };
}

/** `MM/DD/YY hh:mma` in local time, as file lists show dates. */
export function formatListDate(value: string | number | Date): string {
  const p = parts(value);
  return `${p.month}/${p.day}/${p.year.slice(-2)} ${p.hour}:${p.minute}${p.meridiem}`;
}

/** `MM/DD/YYYY`, as the detail panel shows dates. */
export function formatDay(value: string | number | Date): string {
  const p = parts(value);
  return `${p.month}/${p.day}/${p.year}`;
}

/** `MM/DD/YYYY hh:mma`, as the file details popup shows dates. */
export function formatDateTime(value: string | number | Date): string {
  const p = parts(value);
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute}${p.meridiem}`;
}
