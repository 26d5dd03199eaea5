import { useEffect, useState } from 'react';
import { loadedToastify, onToastifyLoaded, setToastContainerMounted, type Toastify } from './toast';

function Container({ library }: { library: Toastify }) {
  const { ToastContainer, Bounce } = library;
  // Runs after ToastContainer's own effects have registered it: the waiting toasts can go now.
  useEffect(() => {
    setToastContainerMounted(library);
    return () => setToastContainerMounted(undefined);
  }, [library]);
  return <ToastContainer position="bottom-left" autoClose={3000} newestOnTop pauseOnFocusLoss={false} transition={Bounce} theme="light" />;
}

/** The toasts at the bottom left: the container appears with the first toast, which loads react-toastify. */
export function ToastHost() {
  const [library, setLibrary] = useState(loadedToastify);
  useEffect(() => onToastifyLoaded(setLibrary), []);
  return library ? <Container library={library} /> : null;
}
