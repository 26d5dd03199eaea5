import { lazy, Suspense, type ComponentProps } from 'react';

const LinkOptionsDialog = lazy(() => import('./LinkOptionsDialog').then((m) => ({ default: m.LinkOptionsDialog })));

/** The link options dialog, loaded when it first opens rather than with the page that offers it. */
export function LazyLinkOptionsDialog(props: ComponentProps<typeof LinkOptionsDialog>) {
  return (
    <Suspense fallback={null}>
      <LinkOptionsDialog {...props} />
    </Suspense>
  );
}
