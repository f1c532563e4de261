import { useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { ToastApiContext, ToastListContext, type Toast, type ToastApi, type ToastOptions, type ToastVariant } from './context';

function createToastApi(setList: Dispatch<SetStateAction<readonly Toast[]>>): ToastApi {
  let nextId = 1;
  const show =
    (variant: ToastVariant) =>
    (message: string, options: ToastOptions = {}) => {
      const id = nextId++;
      setList((current) => [...current, { id, variant, message, ...(options.detail && { detail: options.detail }) }]);
      return id;
    };
  return {
    loading: show('loading'),
    success: show('success'),
    error: show('error'),
    dismiss: (id) => setList((current) => current.filter((toast) => toast.id !== id)),
  };
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [list, setList] = useState<readonly Toast[]>([]);
  // Created once: the API is stable, so effects that use it never re-run because of it.
  const [api] = useState(() => createToastApi(setList));
  return (
    <ToastApiContext.Provider value={api}>
      <ToastListContext.Provider value={list}>{children}</ToastListContext.Provider>
    </ToastApiContext.Provider>
  );
}
