/** The small "Shared" mark on an item of another account that was shared with this one. */
export function SharedBadge() {
  return (
    <span className="shrink-0 rounded-full bg-blue-50 px-2 py-0.5 text-[11px] font-medium text-primary" data-testid="shared-badge">
      Shared
    </span>
  );
}
