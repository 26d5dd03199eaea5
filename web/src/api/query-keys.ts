/** Every TanStack Query key of the app comes from here. */
export const userKeys = {
  all: ['user'] as const,
  detailed: () => [...userKeys.all, 'detailed'] as const,
};
